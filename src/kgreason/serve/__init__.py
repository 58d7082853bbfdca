"""`kgreason serve`: the HTTP API and the analyst's web page (docs/serve.md). Needs the `serve` extra
(FastAPI, uvicorn); nothing else in kgreason imports this package."""
