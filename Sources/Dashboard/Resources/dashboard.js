"use strict";
(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;

  // Each cell of a stacked table gets its column's name, for the phone layout (rows added later too).
  function labelCells(table) {
    const names = Array.from(table.querySelectorAll("thead th")).map((th) => th.textContent.trim());
    for (const row of table.querySelectorAll("tbody tr")) {
      Array.from(row.children).forEach((cell, index) => {
        if (names[index] && !cell.hasAttribute("data-label")) cell.setAttribute("data-label", names[index]);
      });
    }
  }
  for (const table of document.querySelectorAll("table.stack")) {
    labelCells(table);
    new MutationObserver(() => labelCells(table)).observe(table, { childList: true, subtree: true });
  }
  const flash = document.getElementById("flash");
  const notice = document.getElementById("notice");

  function showError(message) {
    flash.textContent = message;
    flash.hidden = false;
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, "Accept": "application/json" },
      body: JSON.stringify(body || {}),
      credentials: "same-origin",
    });
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const text = data && data.error ? data.error + (data.suggestion ? " " + data.suggestion : "") : response.statusText;
      throw new Error(text);
    }
    return data;
  }

  function formBody(form, submitter) {
    const body = {};
    const data = new FormData(form, submitter || undefined);
    for (const [name, value] of data.entries()) {
      if (name === "csrf" || name === "preview") continue;
      if (name === "category") { (body.category = body.category || []).push(value); continue; }
      if (name === "timeout") { if (value !== "") body.timeout = Number(value); continue; }
      body[name] = value;
    }
    return body;
  }

  // Forms marked data-api post JSON and refresh the page (or let a live view take over).
  document.querySelectorAll("form[data-api]").forEach((form) => {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
      const button = event.submitter || form.querySelector("button[type=submit]");
      if (button) button.disabled = true;
      flash.hidden = true;
      const submitter = event.submitter;
      const url = (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action");
      try {
        await post(url, formBody(form, submitter));
        if (submitter && submitter.dataset.success) {
          notice.textContent = submitter.dataset.success;
          notice.hidden = false;
          if (button) button.disabled = false;
        } else if (!form.closest("[data-events]")) {
          window.location.reload();
        }
      } catch (error) {
        showError(error.message);
        if (button) button.disabled = false;
      }
    });
  });
  document.querySelectorAll("[data-submit]").forEach((input) => {
    input.addEventListener("change", () => input.form.requestSubmit());
  });

  // Filters: text over row contents, and a verdict select.
  function applyFilters(selector) {
    const text = document.querySelector('[data-filter="' + selector + '"]');
    const verdict = document.querySelector('[data-verdict-filter="' + selector + '"]');
    const needle = text ? text.value.trim().toLowerCase() : "";
    const wanted = verdict ? verdict.value : "";
    document.querySelectorAll(selector).forEach((row) => {
      const matches = (!needle || row.textContent.toLowerCase().includes(needle)) &&
        (!wanted || row.dataset.verdict === wanted);
      row.hidden = !matches;
    });
  }
  document.querySelectorAll("[data-filter], [data-verdict-filter]").forEach((input) => {
    const selector = input.dataset.filter || input.dataset.verdictFilter;
    input.addEventListener("input", () => applyFilters(selector));
  });

  // Live progress: the current state at once (the server replays it), then every change.
  function watch(section, render) {
    const source = new EventSource(section.dataset.events);
    // A page kept in the back/forward cache must not hold its stream (browsers allow 6 per host).
    window.addEventListener("pagehide", () => source.close());
    let last = null;
    source.addEventListener("status", (event) => {
      const status = JSON.parse(event.data);
      render(status);
      if (last === "running" && status.state !== "running") {
        source.close();
        window.setTimeout(() => window.location.reload(), 400);
      }
      last = status.state;
    });
  }

  function setText(id, text) {
    const element = document.getElementById(id);
    if (element) element.textContent = text;
  }

  // A source's Cancel stops that source alone; the others go on.
  const finishedPhases = ["updated", "unchanged", "failed", "cancelled"];
  document.querySelectorAll("button.source-cancel").forEach((button) => { button.hidden = button.disabled; });
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button.source-cancel");
    if (!button) return;
    button.disabled = true;
    flash.hidden = true;
    try {
      await post("/api/update/sources/" + encodeURIComponent(button.dataset.key) + "/cancel", {});
    } catch (error) {
      showError(error.message);
    }
  });

  const update = document.getElementById("update");
  if (update) {
    watch(update, (status) => {
      setText("update-state", status.state);
      setText("update-step", status.step || "");
      setText("update-message", status.message || "");
      document.getElementById("update-start").disabled = status.state === "running";
      document.getElementById("update-cancel").disabled = status.state !== "running";
      const container = document.getElementById("update-progress");
      const seen = new Set();
      for (const row of status.sources) {
        seen.add(row.key);
        let element = Array.from(container.children).find((child) => child.dataset.source === row.key);
        if (!element) {
          element = document.createElement("div");
          element.className = "source-progress";
          element.dataset.source = row.key;
          const key = document.createElement("span");
          key.className = "key";
          key.textContent = row.key;
          const bar = document.createElement("progress");
          bar.max = 1;
          bar.setAttribute("aria-label", row.key);
          const phase = document.createElement("span");
          phase.className = "phase";
          const cancel = document.createElement("button");
          cancel.type = "button";
          cancel.className = "source-cancel secondary small";
          cancel.dataset.key = row.key;
          cancel.setAttribute("aria-label", "Cancel " + row.key);
          cancel.textContent = "Cancel";
          element.append(key, bar, phase, cancel);
          container.append(element);
        }
        element.className = "source-progress phase-row-" + row.phase;
        element.querySelector("progress").value = row.fraction;
        const phase = element.querySelector(".phase");
        phase.className = "phase phase-" + row.phase;
        phase.textContent = row.detail;
        // A finished source has nothing left to cancel: its button goes (it stayed, disabled).
        const cancelButton = element.querySelector("button.source-cancel");
        const finished = status.state !== "running" || finishedPhases.includes(row.phase);
        cancelButton.hidden = finished;
        cancelButton.disabled = finished;
      }
      Array.from(container.children).forEach((child) => { if (!seen.has(child.dataset.source)) child.remove(); });
    });
  }

  const test = document.getElementById("test");
  if (test) {
    watch(test, (status) => {
      setText("test-state", status.state);
      const bar = document.getElementById("test-progress");
      bar.max = Math.max(1, status.total);
      bar.value = status.done;
      setText("test-message", status.state === "running"
        ? (status.total ? status.done + " of " + status.total + " domains, " + status.blocked + " blocked" : "Checking the control domains…")
        : (status.message || ""));
      document.getElementById("test-start").disabled = status.state === "running";
      document.getElementById("test-cancel").disabled = status.state !== "running";
    });
  }

  // Apply: preview and apply without leaving the page.
  const applyForm = document.getElementById("apply-form");
  if (applyForm) {
    const result = document.getElementById("apply-result");
    const diff = document.getElementById("apply-diff");
    const target = document.getElementById("apply-target");
    target.addEventListener("change", () => { window.location.search = "?target=" + encodeURIComponent(target.value); });
    async function run(url) {
      flash.hidden = true;
      result.dataset.state = "working";
      result.textContent = "Working…";
      try {
        const data = await post(url, { target: target.value, force: document.getElementById("apply-force").checked });
        const r = data.result;
        const counts = r.names.toLocaleString("en-US") + " names (+" + r.added.toLocaleString("en-US") + " −" + r.removed.toLocaleString("en-US") + ")";
        result.textContent = "";
        const line = document.createElement("p");
        line.className = "result";
        line.textContent = r.dryRun ? "Would apply profile " + r.profile + " to " + r.path + ": " + counts + "."
          : r.wrote ? "Applied profile " + r.profile + " to " + r.path + ": " + counts + "." + (r.backup ? " Backup: " + r.backup + "." : "")
          : r.path + " already holds profile " + r.profile + ": nothing to write.";
        result.append(line);
        for (const warning of data.warnings) {
          const p = document.createElement("p");
          p.className = "warning";
          p.textContent = warning;
          result.append(p);
        }
        if (data.verification) {
          const v = data.verification;
          const p = document.createElement("p");
          p.id = "verification";
          p.className = v.passed ? "verification passed" : "verification warning";
          p.textContent = v.summary + " (through " + v.target + ")";
          result.append(p);
          for (const miss of v.notBlocked) {
            const m = document.createElement("p");
            m.className = "small";
            m.textContent = "not blocked: " + miss.name + " (" + miss.outcome + ": " + miss.reason + "): " + miss.cause;
            result.append(m);
          }
        }
        if (data.verificationNote) {
          const p = document.createElement("p");
          p.className = "muted";
          p.id = "verification-note";
          p.textContent = data.verificationNote;
          result.append(p);
        }
        diff.textContent = (data.diff || "(no change)") + (data.diffOmitted ? "\n… " + data.diffOmitted + " more lines" : "");
        result.dataset.state = "done";
        return r;
      } catch (error) {
        result.textContent = "";
        result.dataset.state = "error";
        showError(error.message);
      }
    }
    document.getElementById("apply-preview").addEventListener("click", (event) => { event.preventDefault(); run("/api/apply/preview"); });
    document.getElementById("apply-run").addEventListener("click", async (event) => {
      event.preventDefault();
      const r = await run("/api/apply");
      if (r && r.wrote) {
        const response = await fetch("/api/backups?target=" + encodeURIComponent(target.value), { headers: { Accept: "application/json" } });
        if (response.ok) {
          const backups = await response.json();
          const body = document.querySelector("#backups tbody");
          const first = backups[0];
          if (first && !body.querySelector('[data-backup="' + CSS.escape(first.id) + '"]')) {
            const row = document.createElement("tr");
            for (const text of [first.id, first.date, String(first.bytes), ""]) {
              const cell = document.createElement("td");
              cell.textContent = text;
              row.append(cell);
            }
            body.prepend(row);
          }
        }
      }
    });
  }

  // Why?: each keystroke asks the server, which debounces a burst into one explanation (of its
  // newest text); an answer is shown only when it is for the text now in the box.
  const whyBox = document.querySelector("[data-why]");
  if (whyBox) {
    const result = document.querySelector(whyBox.dataset.why);
    function el(tag, text, className) {
      const node = document.createElement(tag);
      if (text !== undefined) node.textContent = text;
      if (className) node.className = className;
      return node;
    }
    function outputs(list) {
      const groups = [];
      for (const output of list) {
        const key = output.written === "asItself" ? "written"
          : output.written === "coveredByParent" ? "covered by " + (output.parent || "a parent")
          : output.written === "leftOut" ? "left out (" + (output.reason || "") + ")" : "not written";
        const group = groups.find((g) => g.key === key);
        if (group) group.formats.push(output.format); else groups.push({ key: key, formats: [output.format] });
      }
      return groups.map((g) => g.formats.join(", ") + ": " + g.key).join("; ");
    }
    function render(answer) {
      result.replaceChildren();
      for (const x of answer.names) {
        const card = el("article", undefined, "card why verdict-" + x.verdict);
        card.dataset.whyName = x.name || x.query;
        const title = el("h2", x.name || x.query);
        if (x.unicode) title.append(" ", el("span", "(" + x.unicode + ")", "muted"));
        card.append(title);
        const summary = el("p", undefined, "why-summary");
        summary.append(el("strong", x.summary));
        card.append(summary);
        if (x.verdict !== "invalid") {
          if (x.listings.length === 0) card.append(el("p", "Listed by no source of profile " + answer.profile + "."));
          else {
            const table = el("table", undefined, "why-listings stack");
            const head = el("tr");
            for (const h of ["Source", "Lists", "Line", "As written"]) head.append(el("th", h));
            table.append(el("thead"));
            table.tHead.append(head);
            const body = el("tbody");
            for (const l of x.listings) {
              const row = el("tr");
              row.append(el("td", l.source), el("td", (l.exact ? "the name" : "parent " + l.matched) + (l.format ? " (" + l.format + ")" : "")),
                el("td", l.line ? l.line.toLocaleString("en-US") : "–", "num"));
              const code = el("td");
              code.append(el("code", l.text || ""));
              row.append(code);
              body.append(row);
            }
            table.append(body);
            const scroll = el("div", undefined, "scroll");
            scroll.append(table);
            card.append(scroll);
          }
          if (x.rules.length) {
            const list = el("ul", undefined, "why-rules");
            for (const r of x.rules) {
              const item = el("li");
              item.append(el("span", r.allows ? "allow" : "deny", "rule rule-" + (r.allows ? "allow" : "deny")), " ", el("code", r.rule));
              if (r.matched !== x.name) item.append(" on parent " + r.matched);
              if (r.decides) item.append(" ", el("strong", "decides"));
              list.append(item);
            }
            card.append(list);
          }
          if (x.publicSuffix) card.append(el("p", "A public suffix: formats that block subdomains leave it out."));
          const out = el("p", undefined, "why-outputs");
          out.append(el("span", "Outputs:", "muted"), " " + outputs(x.outputs));
          card.append(out);
        }
        result.append(card);
      }
    }
    // Requests can reach the server in another order than the keystrokes: an answer for another
    // text while the box still holds this one means this one was not the burst's newest there, so
    // it is asked again, alone.
    async function ask(name, attempt) {
      try {
        const response = await fetch("/api/why?name=" + encodeURIComponent(name), { headers: { Accept: "application/json" } });
        const answer = await response.json();
        if (whyBox.value.trim() !== name) return;
        if (!response.ok) { showError(answer.error || response.statusText); return; }
        if (answer.names.length && answer.names[0].query === name) {
          flash.hidden = true;
          render(answer);
          history.replaceState(null, "", "/why?name=" + encodeURIComponent(name));
        } else if (attempt < 5) {
          ask(name, attempt + 1);
        }
      } catch (error) { showError(error.message); }
    }
    whyBox.addEventListener("input", () => {
      const name = whyBox.value.trim();
      if (!name) { result.replaceChildren(); return; }
      ask(name, 0);
    });
  }

  // Traffic: the live feed of blocked names, newest first, each with an Allow button (an exact allow
  // rule, posted like the Sources page's rules). At most 200 items are kept.
  const feedSection = document.querySelector("[data-feed]");
  if (feedSection) {
    const list = document.getElementById("feed");
    const source = new EventSource(feedSection.dataset.feed);
    window.addEventListener("pagehide", () => source.close());
    source.addEventListener("hit", (event) => {
      const item = JSON.parse(event.data);
      const empty = document.getElementById("feed-empty");
      if (empty) empty.remove();
      const entry = document.createElement("li");
      const time = item.time ? new Date(item.time).toLocaleTimeString() : "";
      const name = document.createElement("code");
      name.textContent = item.name;
      const detail = document.createElement("span");
      detail.className = "muted";
      detail.textContent = " " + time + " " + (item.type || "") + " · " +
        (item.lists.length ? item.lists.join(", ") : "blocked by the server, in no list of the profile") + " ";
      if (item.notApplied) {
        // Allowed in the profile already; the apply is what is missing (an Allow would fail "exists").
        const pending = document.createElement("span");
        pending.className = "muted";
        pending.textContent = "allowed, not applied yet";
        entry.append(name, detail, pending);
        list.prepend(entry);
        while (list.children.length > 200) list.lastElementChild.remove();
        return;
      }
      const allow = document.createElement("button");
      allow.type = "button";
      allow.className = "small secondary";
      allow.textContent = "Allow";
      allow.addEventListener("click", async () => {
        allow.disabled = true;
        try {
          await post("/api/rules", { kind: "allow", pattern: "=" + item.name });
          notice.textContent = "Allowed " + item.name + ": apply to make it take effect.";
          notice.hidden = false;
        } catch (error) {
          showError(error.message);
          allow.disabled = false;
        }
      });
      entry.append(name, detail, allow);
      list.prepend(entry);
      while (list.children.length > 200) list.lastElementChild.remove();
    });
    source.addEventListener("failure", (event) => showError(event.data));
  }
})();
