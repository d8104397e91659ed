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

  $("search-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { query: $("query").value, index: $("index").value, k: Number($("k").value) || 5 };
    if ($("as_of").value) body.as_of = $("as_of").value;
    if ($("jurisdiction").value) body.jurisdictions = list($("jurisdiction").value);
    if ($("doc_type").value) body.doc_types = list($("doc_type").value);
    if ($("language").value) body.languages = [$("language").value];
    if ($("doc_id").value) body.doc_ids = list($("doc_id").value);
    lastIndex = body.index;
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

  function render(response) {
    const status = $("status");
    status.replaceChildren();
    if (response.not_found) {
      const box = el("div", null, "not-found");
      box.id = "not-found";
      box.append(el("strong", "Not found. "), el("span", response.not_found_reason || "nothing passes the filters"));
      status.append(box);
    } else {
      const retrieved = response.hits.filter((h) => h.via === "retrieval").length;
      const added = response.hits.length - retrieved;
      status.textContent = `${retrieved} hits` + (added ? ` and ${added} clauses they cite` : "")
        + (response.routed_docs.length
        ? ` (routed to ${response.routed_docs.join(", ")})` : "");
    }
    for (const warning of response.warnings || []) status.append(el("p", `warning: ${warning}`, "meta"));
    for (const hit of response.hits) {
      const item = el("li");
      item.className = "hit";
      const head = el("div");
      head.append(el("span", hit.citation, "citation"));
      if (hit.via !== "retrieval") head.append(" ", el("span", hit.via, "via"));
      item.append(head);
      item.append(el("div", `${(hit.heading_path || []).join(" › ") || "(no heading)"} · version ${hit.version} · `
        + validity(hit.valid_from, hit.valid_to) + (hit.jurisdiction ? ` · ${hit.jurisdiction}` : ""), "meta"));
      item.append(el("p", hit.text, "passage"));
      const open = el("button", "Open in the document");
      open.type = "button";
      open.addEventListener("click", () => openDocument(hit.doc_id, { chunk_id: hit.chunk_id }));
      item.append(open);
      $("results").append(item);
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
