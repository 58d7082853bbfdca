// kgreason serve: the analyst's page. No framework; all text goes in through textContent (never as HTML).
"use strict";

const $ = (id) => document.getElementById(id);
const state = { datasets: [], doc: null, sentences: [], cy: null, answer: null };
// What the page shows, for people and for the end-to-end test (tests/serve/test_serve_browser.py).
window.kgreasonView = { nodes: [], edges: [], derivedEdges: 0, highlighted: null, answers: [], constraints: [] };

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function setStatus(text) { $("status").textContent = text; }

async function api(path, options) {
  const res = await fetch(path, options);
  let body = null;
  try { body = await res.json(); } catch (e) { body = null; }
  if (!res.ok) throw new Error((body && body.detail) || `${res.status} ${res.statusText}`);
  return body;
}

function option(select, value, text) {
  const o = el("option", text === undefined ? value : text);
  o.value = value;
  select.appendChild(o);
}

function fmtTriple(t) { return `(${t[0]}, ${t[1]}, ${t[2]})`; }

// ------------------------------------------------------------------------------------------------ ask
async function loadDatasets() {
  state.datasets = await api("/api/datasets");
  const sel = $("dataset");
  sel.textContent = "";
  for (const d of state.datasets) option(sel, d.name, `${d.name}（${d.documents} 篇, ${d.questions} 问）`);
  await loadDocuments();
}

async function loadDocuments() {
  const name = $("dataset").value;
  const docs = await api(`/api/datasets/${encodeURIComponent(name)}/documents`);
  const sel = $("doc");
  sel.textContent = "";
  for (const d of docs) option(sel, d.doc_id, `${d.doc_id}（${d.triples} 三元组）`);
  await loadExamples();
}

async function loadExamples() {
  const name = $("dataset").value, doc = $("doc").value;
  const qs = await api(`/api/datasets/${encodeURIComponent(name)}/questions?doc_id=${encodeURIComponent(doc)}`);
  const sel = $("examples");
  sel.textContent = "";
  option(sel, "", "—");
  for (const q of qs) option(sel, q.question, `${q.difficulty} ${q.question}`);
}

async function showDocument(dataset, docId) {
  if (state.doc && state.doc.key === `${dataset}/${docId}`) return;
  const d = await api(`/api/datasets/${encodeURIComponent(dataset)}/documents/${encodeURIComponent(docId)}`);
  const box = $("doc-text");
  box.textContent = "";
  let pos = 0;
  state.sentences = [];
  for (const s of d.sentences) {
    if (s.start > pos) box.appendChild(document.createTextNode(d.content.slice(pos, s.start)));
    const span = el("span", d.content.slice(s.start, s.end), "sent");
    span.dataset.start = s.start;
    span.dataset.end = s.end;
    box.appendChild(span);
    state.sentences.push(span);
    pos = s.end;
  }
  if (pos < d.content.length) box.appendChild(document.createTextNode(d.content.slice(pos)));
  $("doc-title").textContent = docId;
  state.doc = { key: `${dataset}/${docId}` };
}

function highlight(index) {
  const ev = state.answer ? state.answer.evidence[index] : null;
  for (const s of state.sentences) s.classList.remove("hl");
  for (const li of $("evidence-list").children) li.classList.toggle("active", Number(li.dataset.index) === index);
  window.kgreasonView.highlighted = null;
  if (!ev || ev.start === null) return;
  const span = state.sentences.find((s) => Number(s.dataset.start) === ev.start);
  if (!span) return;
  span.classList.add("hl");
  span.scrollIntoView({ block: "nearest" });
  window.kgreasonView.highlighted = { start: ev.start, end: ev.end, text: span.textContent, evidence: index };
}

// Columns by distance from the question's entity (the chain reads left to right), rows within a column.
function chainLayout(nodes, edges, first) {
  const ids = nodes.map((n) => n.data.id);
  const next = new Map(ids.map((id) => [id, []]));
  for (const e of edges) { next.get(e.data.source).push(e.data.target); next.get(e.data.target).push(e.data.source); }
  const depth = new Map();
  const queue = [];
  const seed = (id) => { if (!depth.has(id)) { depth.set(id, 0); queue.push(id); } };
  if (first !== null) seed(ids[0]);
  for (const id of ids) {
    seed(id);
    while (queue.length) {
      const cur = queue.shift();
      for (const nb of next.get(cur)) if (!depth.has(nb)) { depth.set(nb, depth.get(cur) + 1); queue.push(nb); }
    }
  }
  const rows = new Map();
  const positions = {};
  for (const id of ids) {
    const d = depth.get(id);
    const row = rows.get(d) || 0;
    rows.set(d, row + 1);
    positions[id] = { x: d * 200, y: row * 80 };
  }
  for (const id of ids) {  // centre each column vertically
    positions[id].y -= ((rows.get(depth.get(id)) - 1) * 80) / 2;
  }
  return positions;
}

function drawGraph(answer) {
  const nodes = new Map();
  const answers = new Set(answer.answers);
  const first = answer.evidence.length ? answer.evidence[0].head : null;
  const node = (name, kind) => {
    if (!nodes.has(name)) nodes.set(name, { data: { id: `n${nodes.size}`, label: name }, classes: kind });
    return nodes.get(name).data.id;
  };
  const edges = [];
  answer.evidence.forEach((e, i) => {
    const derived = e.derived;
    const kindOf = (name) => (answers.has(name) ? "answer" : name === first ? "start" : derived ? "value" : "entity");
    const src = node(e.head, kindOf(e.head));
    const dst = node(e.tail, kindOf(e.tail));
    const label = derived ? `${e.relation}（${e.head} vs ${e.tail}）` : e.relation;
    edges.push({ data: { id: `e${i}`, source: src, target: dst, label, index: i }, classes: derived ? "derived" : "kg" });
  });
  if (state.cy) state.cy.destroy();
  const cy = cytoscape({
    container: $("graph"),
    elements: [...nodes.values(), ...edges],
    wheelSensitivity: 0.3,
    style: [
      { selector: "node", style: { label: "data(label)", "font-size": 11, "text-valign": "bottom", "text-margin-y": 3,
        "background-color": "#4a5568", width: 16, height: 16, "text-wrap": "wrap", "text-max-width": 120 } },
      { selector: "node.start", style: { "background-color": "#2b6cb0", width: 22, height: 22 } },
      { selector: "node.answer", style: { "background-color": "#2f855a", width: 22, height: 22, "font-weight": "bold" } },
      { selector: "node.value", style: { shape: "round-rectangle", "background-color": "#c05621" } },
      { selector: "edge", style: { label: "data(label)", "font-size": 10, "curve-style": "bezier", width: 2,
        "target-arrow-shape": "triangle", "line-color": "#a0aec0", "target-arrow-color": "#a0aec0",
        "text-background-color": "#fff", "text-background-opacity": 0.85, "text-background-padding": 2 } },
      { selector: "edge.derived", style: { "line-style": "dashed", "line-color": "#dd6b20", "target-arrow-color": "#dd6b20",
        color: "#c05621" } },
      { selector: "edge.active", style: { width: 4, "line-color": "#d69e2e", "target-arrow-color": "#d69e2e" } },
    ],
    layout: { name: "preset", positions: chainLayout([...nodes.values()], edges, first), fit: true, padding: 30 },
  });
  const pick = (evt) => {
    cy.edges().removeClass("active");
    evt.target.addClass("active");
    highlight(evt.target.data("index"));
  };
  cy.on("tap", "edge", pick);
  cy.on("mouseover", "edge", pick);
  state.cy = cy;
  const g = $("graph");
  g.dataset.nodes = cy.nodes().length;
  g.dataset.edges = cy.edges().length;
  Object.assign(window.kgreasonView, {
    nodes: cy.nodes().map((n) => n.data("label")),
    edges: cy.edges().map((e) => [e.source().data("label"), e.data("label"), e.target().data("label")]),
    derivedEdges: cy.edges(".derived").length,
  });
}

// Where an edge is drawn on the page (for a real mouse click in the end-to-end test).
window.kgreasonEdgePoint = (index) => {
  const e = state.cy.getElementById(`e${index}`);
  const p = e.renderedMidpoint();
  const box = $("graph").getBoundingClientRect();
  return { x: box.left + p.x, y: box.top + p.y };
};

function renderAnswer(a) {
  state.answer = a;
  $("answer-text").textContent = a.answers.length ? a.answers.join("、") : "（无答案）";
  $("answer-type").textContent = a.answer_type ? `· ${a.answer_type}` : "";
  const calls = [a.reading, a.llm].filter((u) => u.asked);
  const model = calls.length ? calls[0].model || "" : "";
  const sum = (k) => calls.reduce((s, u) => s + u[k], 0);
  const read = a.read_type ? `，读题：答案类型 ${a.read_type}` : "";
  const llm = calls.length
    ? `LLM ${model}：${calls.length} 次调用，${sum("prompt_tokens")}+${sum("completion_tokens")} tokens，${sum("seconds").toFixed(2)} s${read}`
    : "LLM：未调用（程序已能区分候选）";
  $("answer-meta").textContent = `${a.query_id} · ${a.difficulty} · 推理 ${a.seconds.toFixed(3)} s · 服务 ${a.server_seconds.toFixed(3)} s · ${llm}`;

  const chips = $("constraints");
  chips.textContent = "";
  if (!a.constraints.length) chips.appendChild(el("span", "（问题无约束）", "meta"));
  for (const c of a.constraints) {
    const cls = c.satisfied === true ? "ok" : c.satisfied === false ? "fail" : "unknown";
    const mark = c.satisfied === true ? "✓" : c.satisfied === false ? "✗" : "?";
    const chip = el("span", `${mark} ${c.key}: ${c.value}`, `chip ${cls}`);
    for (const t of c.derived) chip.appendChild(el("small", fmtTriple(t)));
    for (const n of c.notes) chip.appendChild(el("small", n));
    chips.appendChild(chip);
  }
  window.kgreasonView.answers = a.answers;
  window.kgreasonView.constraints = a.constraints.map((c) => ({ key: c.key, satisfied: c.satisfied }));

  const list = $("evidence-list");
  list.textContent = "";
  a.evidence.forEach((e, i) => {
    const li = el("li", fmtTriple([e.head, e.relation, e.tail]) + (e.derived ? "  〔推导〕" : e.sentence ? "" : "  〔未找到来源句〕"),
      e.derived ? "derived" : "");
    li.dataset.index = i;
    li.addEventListener("mouseenter", () => highlight(i));
    li.addEventListener("click", () => highlight(i));
    list.appendChild(li);
  });
  for (const s of state.sentences) {
    s.classList.toggle("evidence", a.evidence.some((e) => e.start === Number(s.dataset.start)));
  }

  const body = $("candidates").querySelector("tbody");
  body.textContent = "";
  for (const c of a.candidates) {
    const tr = el("tr", null, c.chosen ? "chosen" : "");
    tr.appendChild(el("td", c.chosen ? `${c.id} ✔` : c.id));
    tr.appendChild(el("td", c.answers.join("、")));
    tr.appendChild(el("td", c.score.toFixed(3)));
    tr.appendChild(el("td", c.origin));
    tr.appendChild(el("td", c.checks_failed));
    body.appendChild(tr);
  }
  $("result").hidden = false;
  drawGraph(a);
}

async function ask(event) {
  if (event) event.preventDefault();
  const question = $("question").value.trim();
  if (!question) return;
  const body = { dataset: $("dataset").value, doc_id: $("doc").value, question };
  if ($("level").value) body.difficulty = $("level").value;
  document.body.dataset.state = "asking";
  setStatus("推理中…");
  try {
    await showDocument(body.dataset, body.doc_id);
    const a = await api("/api/ask", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    renderAnswer(a);
    setStatus(`完成：${a.answers.length} 个答案，${a.evidence.length} 条证据`);
    document.body.dataset.state = "answered";
  } catch (e) {
    setStatus(`错误：${e.message}`);
    document.body.dataset.state = "error";
  }
}

// ----------------------------------------------------------------------------------------------- runs
async function loadRuns() {
  const runs = await api("/api/runs");
  const sel = $("run");
  sel.textContent = "";
  if (!runs.length) { option(sel, "", "（未提供运行：kgreason serve --runs FOLDER）"); return; }
  for (const r of runs) option(sel, r.id, r.mean === null ? `${r.id}（未评分）` : `${r.id}（均分 ${r.mean}）`);
  await loadRunItems(true);
}

async function loadRunItems(resetFilters) {
  const run = $("run").value;
  if (!run) return;
  const params = new URLSearchParams({ run });
  if (!resetFilters && $("run-level").value) params.set("level", $("run-level").value);
  if (!resetFilters && $("run-type").value) params.set("answer_type", $("run-type").value);
  const data = await api(`/api/runs/items?${params}`);
  if (resetFilters) {
    for (const [id, values] of [["run-level", data.levels], ["run-type", data.answer_types]]) {
      const sel = $(id);
      sel.textContent = "";
      option(sel, "", "全部");
      for (const v of values) option(sel, v);
    }
  }
  $("run-summary").textContent = data.mean === null ? `${data.count} 题` : `${data.count} 题，均分 ${data.mean}`;
  const body = $("run-table").querySelector("tbody");
  body.textContent = "";
  for (const it of data.items) {
    const tr = el("tr");
    tr.dataset.queryId = it.query_id;
    tr.title = it.question;
    const c = it.components;
    const cells = [it.query_id, it.level, it.answer_type, it.score,
      c && c.answer, c && c.evidence, c && c.reasoning, c && c.constraint];
    cells.forEach((v, i) => tr.appendChild(el("td", v === null || v === undefined ? "–" : (typeof v === "number" ? v.toFixed(3) : v), i >= 3 ? "num" : "")));
    tr.addEventListener("click", () => showRunItem(run, it.query_id, tr));
    body.appendChild(tr);
  }
}

async function showRunItem(run, queryId, tr) {
  for (const r of $("run-table").querySelectorAll("tr.active")) r.classList.remove("active");
  tr.classList.add("active");
  const d = await api(`/api/runs/item?run=${encodeURIComponent(run)}&query_id=${encodeURIComponent(queryId)}`);
  $("run-detail").hidden = false;
  $("run-detail-title").textContent = `${d.item.query_id} · ${d.item.level} · ${d.item.question}`;
  $("run-answers").textContent = `预测：${d.predicted_answers.join("、") || "（无）"}　标准：${d.gold_answers ? d.gold_answers.join("、") : "（无标准答案）"}`;
  $("gold-label").textContent = d.gold_path_label ? `（${d.gold_path_label}）` : "";
  for (const [id, chain] of [["pred-chain", d.predicted_chain], ["gold-chain", d.gold_chain || []]]) {
    const ol = $(id);
    ol.textContent = "";
    for (const m of chain) ol.appendChild(el("li", fmtTriple(m.triple), d.gold_chain ? (m.matched ? "matched" : "unmatched") : ""));
  }
  const open = $("run-open");
  open.hidden = !d.explanation;
  open.onclick = async () => {
    showTab("ask");
    const a = d.explanation;
    $("question").value = a.question;
    await showDocument(a.dataset, a.doc_id);
    renderAnswer(a);
    setStatus(`运行 ${run} 的 ${a.query_id}（来自其 trace）`);
    document.body.dataset.state = "answered";
  };
  const fmt = (c) => Object.entries(c || {}).map(([k, v]) => `${k}: ${v}`).join("；") || "（无）";
  $("run-constraints").textContent = `预测约束 ${fmt(d.predicted_constraints)}　标准约束 ${d.gold_constraints ? fmt(d.gold_constraints) : "—"}`;
}

// ----------------------------------------------------------------------------------------------- start
function showTab(name) {
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  $("panel-ask").hidden = name !== "ask";
  $("panel-runs").hidden = name !== "runs";
  if (name === "runs" && !$("run").options.length) loadRuns().catch((e) => setStatus(`错误：${e.message}`));
}

async function start() {
  for (const t of document.querySelectorAll(".tab")) t.addEventListener("click", () => showTab(t.dataset.tab));
  $("ask-form").addEventListener("submit", ask);
  $("dataset").addEventListener("change", () => loadDocuments().catch((e) => setStatus(`错误：${e.message}`)));
  $("doc").addEventListener("change", () => loadExamples().catch((e) => setStatus(`错误：${e.message}`)));
  $("examples").addEventListener("change", () => { if ($("examples").value) $("question").value = $("examples").value; });
  $("run").addEventListener("change", () => loadRunItems(true));
  $("run-level").addEventListener("change", () => loadRunItems(false));
  $("run-type").addEventListener("change", () => loadRunItems(false));
  try {
    await loadDatasets();
    // Deep links: /?dataset=NAME&doc=DOC_ID&q=QUESTION asks at once.
    const p = new URLSearchParams(location.search);
    if (p.get("dataset")) { $("dataset").value = p.get("dataset"); await loadDocuments(); }
    if (p.get("doc")) { $("doc").value = p.get("doc"); await loadExamples(); }
    if (p.get("tab")) showTab(p.get("tab"));
    document.body.dataset.state = "ready";
    setStatus("就绪");
    if (p.get("q")) { $("question").value = p.get("q"); await ask(); }
  } catch (e) {
    setStatus(`错误：${e.message}`);
    document.body.dataset.state = "error";
  }
}

start();
