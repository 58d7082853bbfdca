"""Knowledge-graph index, typed values (dates, periods, numbers) and path search."""
