// legalsearch's page: plain JavaScript over the service's /v1 endpoints (docs/service.md).
// The credentials stay in this page's memory (never stored); every text is put in with
// textContent, never as HTML.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  let auth = null;        // "Basic ..." for the logged-in user
  let lastIndex = null;

  async function call(path, options = {}) {
    const headers = { Authorization: auth, "X-Requested-With": "legalsearch-page", ...(options.body ? { "Content-Type": "application/json" } : {}) };
    const answer = await fetch(path, { ...options, headers });
    const body = await answer.json().catch(() => ({}));
    if (!answer.ok) {
      const error = new Error(body.detail || `HTTP ${answer.status}`);
      error.status = answer.status;
      throw error;
    }
    return body;
  }

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  function show(view) {
    for (const id of ["login-view", "search-view", "document-view"]) $(id).hidden = id !== view;
  }

  function validity(from, to) {
    if (!from && !to) return "valid: no dates";
    return `valid ${from || "…"} to ${to || "today"}`;
  }

  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const user = $("user").value;
    auth = "Basic " + btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${$("password").value}`)));
    $("login-error").textContent = "";
    try {
      const indices = await call("/v1/indices");
      const select = $("index");
      select.replaceChildren(...indices.map((r) => { const o = el("option", r.name); o.value = r.name; return o; }));
      $("password").value = "";
      $("who").textContent = `logged in as ${user}`;
      $("logout").hidden = false;
      show("search-view");
      $("query").focus();
    } catch (error) {
      auth = null;
      $("login-error").textContent = error.message;
    }
  });

  $("logout").addEventListener("click", () => {
    auth = null;
    $("results").replaceChildren();
    $("status").textContent = "";
    $("who").textContent = "";
    $("logout").hidden = true;
    show("login-view");
    $("user").focus();
  });

  function list(value) {
    return value.split(",").map((v) => v.trim()).filter(Boolean);
  }

  let lastBody = null;    // the body of the last search (the explanation is asked for the same one)
  let explained = null;   // a promise of its explanation, asked once, on the first "Why this hit?"

  $("search-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { query: $("query").value, index: $("index").value, k: Number($("k").value) || 5, highlight: true };
    if ($("as_of").value) body.as_of = $("as_of").value;
    if ($("jurisdiction").value) body.jurisdictions = list($("jurisdiction").value);
    if ($("doc_type").value) body.doc_types = list($("doc_type").value);
    if ($("language").value) body.languages = [$("language").value];
    if ($("doc_id").value) body.doc_ids = list($("doc_id").value);
    lastIndex = body.index;
    lastBody = body;
    explained = null;
    $("search-error").textContent = "";
    $("status").textContent = "searching…";
    $("results").replaceChildren();
    try {
      render(await call("/v1/search", { method: "POST", body: JSON.stringify(body) }));
    } catch (error) {
      $("status").textContent = "";
      $("search-error").textContent = error.message;
    }
  });

  // The passage with its matched words in <mark class="hl"> (offsets from the service's highlights).
  function passage(hit) {
    const p = el("p", null, "passage");
    let last = 0;
    for (const [start, end] of hit.highlights || []) {
      if (start < last) continue;
      p.append(hit.text.slice(last, start), el("mark", hit.text.slice(start, end), "hl"));
      last = end;
    }
    p.append(hit.text.slice(last));
    return p;
  }

  function hitItem(hit) {
    const item = el("li", null, "hit");
    item.dataset.chunkId = hit.chunk_id;
    item.dataset.via = hit.via;
    const head = el("div");
    head.append(el("span", hit.citation, "citation"));
    const added = { definition: "definition", amended_by: "amendment" }[hit.via.split(":")[0]] || "cited";
    if (hit.via !== "retrieval") head.append(" ", el("span", added, "via"));
    // a clause an amendment in the index changes: say so even when the amendment is not shown
    if ((hit.amended_by || []).length) head.append(" ", el("span", "amended", "via"));
    // one of the places given to a routed document in the other language: scored by that language's search alone
    if (hit.language_place) head.append(" ", el("span", `searched in ${hit.language_place} alone`, "via"));
    item.append(head);
    item.append(el("div", `${(hit.heading_path || []).join(" › ") || "(no heading)"} · version ${hit.version} · `
      + validity(hit.valid_from, hit.valid_to) + (hit.jurisdiction ? ` · ${hit.jurisdiction}` : "")
      + (typeof hit.relevance === "number" ? ` · relevance ${hit.relevance.toFixed(2)}` : ""), "meta"));
    item.append(passage(hit));
    const actions = el("div", null, "actions");
    const open = el("button", "Open in the document");
    open.type = "button";
    open.addEventListener("click", () => openDocument(hit.doc_id, { chunk_id: hit.chunk_id }));
    actions.append(open);
    if (hit.via === "retrieval") {
      const why = el("button", "Why this hit?");
      why.type = "button";
      why.className = "why-button";
      why.setAttribute("aria-expanded", "false");
      const box = el("div", null, "why");
      box.hidden = true;
      why.addEventListener("click", () => toggleWhy(hit, why, box));
      actions.append(" ", why);
      item.append(actions, box);
    } else {
      item.append(actions);
    }
    return item;
  }

  function render(response) {
    const status = $("status");
    status.replaceChildren();
    if (response.not_found) {
      const box = el("div", null, "not-found");
      box.id = "not-found";
      box.append(el("strong", "Not found. "), el("span", response.not_found_reason || "nothing passes the filters"));
      if (response.hits.length) {
        // abstention: nothing answers, the closest passages are still shown, marked as such
        box.append(el("p", "The closest passages follow; none of them answers the question.", "meta"));
      }
      status.append(box);
    } else {
      const retrieved = response.hits.filter((h) => h.via === "retrieval").length;
      const amending = response.hits.filter((h) => h.via.startsWith("amended_by:")).length;
      const added = response.hits.length - retrieved - amending;
      status.textContent = `${retrieved} hits` + (added ? `, ${added} clauses they cite` : "")
        + (amending ? `, ${amending} amendment${amending === 1 ? "" : "s"} that change${amending === 1 ? "s" : ""} them` : "")
        + (response.routed_docs.length
        ? ` (routed to ${response.routed_docs.join(", ")})` : "");
    }
    for (const warning of response.warnings || []) status.append(el("p", `warning: ${warning}`, "meta"));
    // A clause the search added (via "xref:<chunk_id>" or "definition:<chunk_id>") goes under the hit that cites it.
    const items = new Map();
    const orphans = [];
    for (const hit of response.hits) {
      if (hit.via === "retrieval") {
        const item = hitItem(hit);
        items.set(hit.chunk_id, item);
        $("results").append(item);
        continue;
      }
      const citing = items.get(hit.via.slice(hit.via.indexOf(":") + 1));
      if (!citing) { orphans.push(hit); continue; }
      let cited = citing.querySelector(":scope > .cited");
      if (!cited) {
        citing.append(el("p", "Clauses this hit cites:", "cited-title"));
        cited = el("ul", null, "cited");
        citing.append(cited);
      }
      cited.append(hitItem(hit));
      if (hit.via.startsWith("amended_by:")) citing.dataset.amended = "1";
    }
    for (const item of items.values()) {  // an amendment under the clause it changes is not a clause it cites
      const title = item.querySelector(":scope > .cited-title");
      if (title && item.dataset.amended) {
        const cites = item.querySelectorAll(":scope > .cited > li").length
          > item.querySelectorAll(":scope > .cited > li[data-via^='amended_by:']").length;
        title.textContent = cites ? "Amendments that change this clause, and the clauses it cites:"
          : "Amendments that change this clause:";
      }
    }
    for (const hit of orphans) $("results").append(hitItem(hit));
  }

  function number(value, digits = 3) {
    return value === null || value === undefined ? "–" : Number(value).toFixed(digits);
  }

  async function toggleWhy(hit, button, box) {
    const opening = box.hidden;
    box.hidden = !opening;
    button.setAttribute("aria-expanded", String(opening));
    if (!opening || box.childElementCount) return;
    box.append(el("p", "asking the engine…", "meta"));
    try {
      explained = explained || call("/v1/explain", { method: "POST", body: JSON.stringify(lastBody) });
      const explanation = await explained;
      box.replaceChildren();
      const row = (explanation.hits || []).find((h) => h.chunk_id === hit.chunk_id);
      if (!row) {
        box.append(el("p", "The explanation's ranking does not hold this passage (the index changed since).", "meta"));
        return;
      }
      box.append(el("p", `Fused score ${number(row.fused_score)} (${explanation.normalization || "rank"} normalization, `
        + `${explanation.combination || ""}).`, "meta"));
      // the pipeline's weights, in the order of the lists, as the engine describes its combination
      const found = /weights \[([^\]]*)\]/.exec(explanation.combination || "");
      const weights = found ? found[1].split(",").map(Number) : [];
      const lists = explanation.lists || [];
      const weighted = weights.length === lists.length;
      const table = el("table");
      const head = el("tr");
      for (const title of ["list", "raw score", "normalized", ...(weighted ? ["weight", "adds"] : [])]) head.append(el("th", title));
      table.append(head);
      lists.forEach((list, i) => {
        const score = (row.scores || {})[list];
        const tr = el("tr");
        tr.append(el("td", list), el("td", score ? number(score.raw) : "not matched"),
          el("td", score ? number(score.normalized) : "–"));
        if (weighted) {
          tr.append(el("td", number(weights[i], 2)), el("td", score ? number(weights[i] * score.normalized) : "0"));
        }
        table.append(tr);
      });
      box.append(table);
      const priors = Object.entries(row.priors || {}).filter(([, v]) => v);
      box.append(el("p", priors.length ? "Added after fusion: " + priors.map(([k, v]) => `${k} ${number(v)}`).join(", ")
        : "No prior added after fusion (routing, current text).", "meta"));
      if (explanation.routed_docs && explanation.routed_docs.length) {
        box.append(el("p", `Routed to ${explanation.routed_docs.join(", ")}`
          + (explanation.named_by && explanation.named_by.length ? ` (named by: ${explanation.named_by.join(", ")})` : "")
          + (explanation.routing_unsure && explanation.routing_prior
            ? `. Routing was unsure among these look-alike documents (its lists disagree on the first one): `
              + `routing prior ${number(explanation.routing_prior, 2)}.` : ""), "meta"));
      }
      if (explanation.identifiers && explanation.identifiers.length) {
        box.append(el("p", `The question cites ${explanation.identifiers.join(", ")}.`, "meta"));
      }
    } catch (error) {
      box.replaceChildren(el("p", error.message, "error"));
    }
  }

  async function openDocument(docId, params) {
    const query = new URLSearchParams({ index: lastIndex, ...params });
    try {
      const doc = await call(`/v1/documents/${encodeURIComponent(docId)}?${query}`);
      $("doc-title").textContent = doc.title;
      $("doc-meta").textContent = `${doc.doc_id} · version ${doc.version} · ${validity(doc.valid_from, doc.valid_to)}`
        + (doc.jurisdiction ? ` · ${doc.jurisdiction}` : "") + (doc.language ? ` · ${doc.language}` : "");
      const versions = $("doc-versions");
      versions.replaceChildren(el("span", "Versions: "));
      for (const v of doc.versions) {
        const b = el("button", `${v.version} (${validity(v.valid_from, v.valid_to)})${v.in_force ? ", in force" : ""}`);
        b.type = "button";
        b.setAttribute("aria-current", String(v.version === doc.version));
        b.addEventListener("click", () => openDocument(doc.doc_id, { version: v.version }));
        versions.append(b, " ");
      }
      const text = $("doc-text");
      text.replaceChildren();
      if (doc.focus) {
        const mark = el("mark", doc.text.slice(doc.focus.char_start, doc.focus.char_end));
        mark.id = "focus";
        text.append(doc.text.slice(0, doc.focus.char_start), mark, doc.text.slice(doc.focus.char_end));
        show("document-view");
        mark.scrollIntoView({ block: "center" });
      } else {
        text.textContent = doc.text;
        show("document-view");
      }
      text.focus({ preventScroll: true });
    } catch (error) {
      $("search-error").textContent = error.message;
      show("search-view");
    }
  }

  $("back").addEventListener("click", () => { show("search-view"); $("query").focus(); });
})();
