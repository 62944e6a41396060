/// The dashboard's stylesheet and script, served from the binary (no build step, no CDN).
enum Assets {
  /// Light and dark, readable down to a phone's width, visible focus, no inline styles (the CSP forbids them).
  static let css = """
    :root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --card: #f6f8fa; --border: #d0d7de;
      --accent: #0a58ca; --accent-fg: #ffffff; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --track: #d0d7de; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9da7b3; --card: #161b22; --border: #30363d;
        --accent: #4493f8; --accent-fg: #0d1117; --ok: #3fb950; --warn: #d29922; --bad: #f85149; --track: #30363d; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg);
      overflow-wrap: break-word; }
    a { color: var(--accent); }
    :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    .skip { position: absolute; left: -999px; top: 0; background: var(--accent); color: var(--accent-fg); padding: .5rem 1rem; }
    .skip:focus { left: 0; z-index: 10; }
    header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .75rem 1rem; border-bottom: 1px solid var(--border); }
    .brand { font-weight: 700; font-size: 1.1rem; }
    nav ul { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: 0; padding: 0; }
    nav a { display: block; padding: .4rem .7rem; border-radius: 6px; text-decoration: none; color: var(--fg); }
    nav a[aria-current="page"] { background: var(--accent); color: var(--accent-fg); }
    main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
    footer { max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: var(--muted); font-size: .875rem; }
    h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
    h2 { font-size: 1.25rem; margin: 1.5rem 0 .5rem; }
    .card h2 { margin-top: 0; }
    .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 1rem; }
    .card { background: var(--card); border: 1px solid var(--border); border-radius: 10px; padding: 1rem; margin-bottom: 1rem; }
    .big { font-size: 1.6rem; font-weight: 700; margin: .25rem 0; overflow-wrap: anywhere; }
    .muted { color: var(--muted); }
    .small { font-size: .85rem; }
    .row { display: flex; gap: .75rem; align-items: flex-end; }
    .row.wrap { flex-wrap: wrap; }
    .stack > * { display: block; margin-bottom: .5rem; }
    .inline { display: inline; }
    .plain { list-style: none; padding: 0; }
    .scroll { overflow-x: auto; position: relative; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--border); vertical-align: top; }
    .heatmap { width: auto; }
    .heatmap td, .heatmap th { text-align: center; min-width: 2.4rem; }
    .heatmap .heat-self { color: var(--muted); }
    .heat-0 { background: transparent; } .heat-1 { background: rgba(10, 88, 202, .08); }
    .heat-2 { background: rgba(10, 88, 202, .16); } .heat-3 { background: rgba(10, 88, 202, .24); }
    .heat-4 { background: rgba(10, 88, 202, .32); } .heat-5 { background: rgba(10, 88, 202, .40); }
    .heat-6 { background: rgba(10, 88, 202, .48); } .heat-7 { background: rgba(10, 88, 202, .56); color: #fff; }
    .heat-8 { background: rgba(10, 88, 202, .66); color: #fff; } .heat-9 { background: rgba(10, 88, 202, .78); color: #fff; }
    .heat-10 { background: rgba(10, 88, 202, .9); color: #fff; }
    meter { width: 8rem; vertical-align: middle; }
    .stale, .status-held { color: var(--warn); }
    .why .why-summary { margin: .25rem 0 .5rem; }
    .verdict-blocked h2, .verdict-coveredByParent h2 { color: var(--bad); }
    .verdict-allowed h2, .verdict-notBlocked h2 { color: var(--ok); }
    ul.names { columns: 18rem auto; padding-left: 1.2rem; }
    .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    .row > button + button, .actions button + button { margin-left: .5rem; }
    .preview:empty, #apply-result:empty, #apply-diff:empty { display: none; }
    #why-form > div { flex: 1 1 24rem; }
    #why-name { width: 100%; }
    tr.disabled td { color: var(--muted); }
    .location { overflow-wrap: anywhere; }
    label { font-weight: 600; display: block; }
    label.check { font-weight: 400; display: inline-flex; gap: .35rem; align-items: center; }
    input, select { font: inherit; padding: .4rem .5rem; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--fg); max-width: 100%; }
    input[type="url"], input[type="search"] { width: min(40rem, 100%); }
    fieldset { border: 1px solid var(--border); border-radius: 8px; }
    button, .button { font: inherit; padding: .45rem .9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent);
      color: var(--accent-fg); cursor: pointer; text-decoration: none; display: inline-block; }
    button.secondary, .button.secondary { background: transparent; color: var(--accent); }
    button.small { padding: .2rem .5rem; font-size: .85rem; }
    button:disabled { opacity: .45; cursor: not-allowed; }
    /* `hidden` wins over the display rules above (a button's inline-block had kept hidden ones on screen). */
    [hidden] { display: none !important; }
    progress { width: 100%; height: .9rem; accent-color: var(--accent); }
    .source-progress { display: grid; grid-template-columns: minmax(6rem, 12rem) 1fr minmax(8rem, 18rem) auto; gap: .75rem; align-items: center; padding: .25rem 0; }
    .source-progress .key, .source-progress .phase { font-weight: 600; overflow-wrap: anywhere; min-width: 0; }
    .source-progress .phase { font-weight: 400; }
    .phase-row-failed progress { accent-color: var(--bad); }
    td .message { overflow-wrap: anywhere; }
    .phase-failed, .status-failed, .verdict-reachable, .verdict-leaking, .error { color: var(--bad); }
    .phase-updated, .phase-unchanged, .status-updated, .status-unchanged, .verdict-blocked, .ok { color: var(--ok); }
    .phase-cancelled, .verdict-inconclusive, .warning { color: var(--warn); }
    .state { text-transform: capitalize; }
    .gauge .track { stroke: var(--track); }
    .gauge .value { stroke: var(--muted); }
    .gauge.rating-strong .value { stroke: var(--ok); }
    .gauge.rating-moderate .value { stroke: var(--warn); }
    .gauge.rating-weak .value { stroke: var(--bad); }
    .gauge text { fill: var(--fg); }
    .gauge-label { font-size: 24px; font-weight: 700; }
    .gauge-rating { font-size: 11px; fill: var(--muted); }
    .result-head { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: center; }
    #score-chart { width: 100%; max-width: 48rem; height: auto; }
    #score-chart .grid { stroke: var(--border); }
    #score-chart .axis { fill: var(--muted); font-size: 11px; }
    #score-chart .line { stroke: var(--accent); stroke-width: 2.5; }
    #score-chart .dot { fill: var(--accent); }
    .diff { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: .75rem; max-height: 24rem; overflow: auto; white-space: pre-wrap; }
    .rule { font-weight: 700; }
    .rule-allow { color: var(--ok); }
    .rule-deny { color: var(--bad); }
    #flash { padding: .75rem 1rem; border-radius: 8px; border: 1px solid var(--bad); color: var(--bad); margin-bottom: 1rem; }
    #notice { padding: .75rem 1rem; border-radius: 8px; border: 1px solid var(--ok); color: var(--ok); margin-bottom: 1rem; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    @media (max-width: 40rem) {
      .row { flex-direction: column; align-items: stretch; }
      .source-progress { grid-template-columns: 1fr; gap: .2rem; }
      th, td { padding: .3rem; }
      main { padding: .75rem; }
      /* The sources table becomes one block per source, each cell labelled: nothing scrolls sideways. */
      #sources thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
      #sources, #sources tbody, #sources tr, #sources td { display: block; }
      #sources tr { border-bottom: 1px solid var(--border); padding: .4rem 0; }
      #sources td { border: 0; padding: .1rem 0; text-align: left; }
      #sources td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
      #sources td[data-label] form, #sources td[data-label] label { display: inline; }
      /* The other wide tables too: one block per row, each cell under its column's name (labelled by the
         script from the table's head), so the key column is always in sight. */
      table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
      table.stack, table.stack tbody, table.stack tr, table.stack td, table.stack th[scope="row"] { display: block; }
      table.stack tr { border-bottom: 1px solid var(--border); padding: .4rem 0; }
      table.stack td, table.stack th[scope="row"] { border: 0; padding: .1rem 0; text-align: left; overflow-wrap: anywhere; }
      table.stack td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
    }
    """

  /// Progressive enhancement: forms post JSON with the CSRF header, live progress from Server-Sent Events,
  /// filters. Data is only ever written with `textContent`, never as markup.
  static let javascript = """
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
            } else if (data.verificationNote) {
              const p = document.createElement("p");
              p.className = "muted";
              p.textContent = data.verificationNote;
              result.append(p);
            }
            diff.textContent = (data.diff || "(no change)") + (data.diffOmitted ? "\\n… " + data.diffOmitted + " more lines" : "");
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
    })();
    """
}
