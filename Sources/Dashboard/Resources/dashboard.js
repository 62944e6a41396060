"use strict";
// Progressive enhancement of the server's pages. Every piece of markup comes from the server's templates:
// the script posts the pages' own forms without leaving the page, and swaps in what the server renders
// (a page, a fragment of one, a Server-Sent Event's fragment) in place of the elements with the same id.
(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const flash = document.getElementById("flash");
  const notice = document.getElementById("notice");

  function showError(message) {
    flash.textContent = message;
    flash.hidden = false;
  }

  function parse(html) {
    return new DOMParser().parseFromString(html, "text/html");
  }

  // Makes `from` look like `to` (from another document), keeping the elements that stay, so focus,
  // listeners and references to them survive; form fields take the server's values, as on a reload.
  function morph(from, to) {
    if (from.nodeType !== to.nodeType || from.nodeName !== to.nodeName ||
        (from.nodeType === Node.ELEMENT_NODE && from.id !== to.id)) {
      from.replaceWith(document.importNode(to, true));
      return;
    }
    if (from.nodeType !== Node.ELEMENT_NODE) {
      if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
      return;
    }
    for (const attribute of Array.from(from.attributes)) {
      if (!to.hasAttribute(attribute.name)) from.removeAttribute(attribute.name);
    }
    for (const attribute of Array.from(to.attributes)) {
      if (from.getAttribute(attribute.name) !== attribute.value) from.setAttribute(attribute.name, attribute.value);
    }
    if (from.nodeName === "INPUT" && from.type !== "file") {
      from.checked = to.hasAttribute("checked");
      from.value = to.getAttribute("value") || "";
    } else if (from.nodeName === "OPTION") {
      from.selected = to.hasAttribute("selected");
    }
    const old = Array.from(from.childNodes);
    const fresh = Array.from(to.childNodes);
    fresh.forEach((child, index) => {
      if (index < old.length) morph(old[index], child);
      else from.append(document.importNode(child, true));
    });
    for (const child of old.slice(fresh.length)) child.remove();
  }

  // Puts each top element of a rendered page or fragment in place of the page's element with its id.
  function swapIn(doc) {
    for (const element of Array.from(doc.body.children)) {
      const current = element.id && document.getElementById(element.id);
      if (current) morph(current, element);
    }
  }

  // Sends a request as the page's own forms and links do, and reads the HTML the server renders; a
  // redirect (a form's answer: back to its page) is success. A refusal's flash is swapped in.
  async function request(url, init) {
    const options = Object.assign({ credentials: "same-origin", redirect: "manual" }, init || {});
    options.headers = { "Accept": "text/html", "X-CSRF-Token": csrf };
    let response;
    try {
      response = await fetch(url, options);
    } catch (error) {
      showError(error.message);
      return null;
    }
    if (response.type === "opaqueredirect") return { doc: null };
    const doc = parse(await response.text());
    if (!response.ok) {
      const alert = doc.getElementById("flash");
      if (alert && alert.textContent.trim()) morph(flash, alert);
      else showError(response.status + " " + response.statusText);
      return null;
    }
    return { doc: doc };
  }

  // The page as the server renders it now, swapped in (where a reload used to be).
  async function refresh() {
    const answer = await request(window.location.href);
    if (answer && answer.doc) swapIn(answer.doc);
  }

  // Forms marked data-api post as they do without JavaScript, without leaving the page: then the page is
  // refreshed in place, a live section shows what follows, or the button's data-success is said.
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches("form[data-api]")) return;
    event.preventDefault();
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
    const submitter = event.submitter;
    const button = submitter || form.querySelector("button[type=submit]");
    if (button) button.disabled = true;
    flash.hidden = true;
    notice.hidden = true;
    const url = (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action");
    const answer = await request(url, { method: "POST", body: new URLSearchParams(new FormData(form, submitter)) });
    if (!answer) {
      if (button) button.disabled = false;
    } else if (submitter && submitter.dataset.success) {
      notice.textContent = submitter.dataset.success;
      notice.hidden = false;
      if (button) button.disabled = false;
    } else if (!form.closest("[data-events]")) {
      await refresh();
    }
  });
  document.addEventListener("change", (event) => {
    if (event.target.matches("[data-submit]")) event.target.form.requestSubmit();
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
  document.addEventListener("input", (event) => {
    const selector = event.target.dataset.filter || event.target.dataset.verdictFilter;
    if (selector) applyFilters(selector);
  });

  // Live sections: the server sends the section's fragment as it changes (the current one at once); a
  // run that ends refreshes the page in place.
  document.querySelectorAll("[data-events]").forEach((section) => {
    const source = new EventSource(section.dataset.events);
    // A page kept in the back/forward cache must not hold its stream (browsers allow 6 per host).
    window.addEventListener("pagehide", () => source.close());
    let last = null;
    source.addEventListener("fragment", (event) => {
      const doc = parse(event.data);
      swapIn(doc);
      const root = doc.body.firstElementChild;
      const state = root ? root.dataset.state : null;
      if (last === "running" && state !== "running") window.setTimeout(refresh, 400);
      last = state;
    });
  });

  // Apply: preview and apply without leaving the page; the server renders the outcome (and the backups).
  const applyForm = document.getElementById("apply-form");
  if (applyForm) {
    const target = document.getElementById("apply-target");
    target.addEventListener("change", () => { window.location.search = "?target=" + encodeURIComponent(target.value); });
    async function run(post) {
      flash.hidden = true;
      const result = document.getElementById("apply-result");
      result.textContent = "Working…";
      const fields = new URLSearchParams(new FormData(applyForm));
      fields.delete("csrf");
      const answer = post
        ? await request("/apply?fragment=apply-outcome", { method: "POST", body: fields })
        : await request("/apply?fragment=apply-outcome&" + fields.toString());
      if (answer && answer.doc) swapIn(answer.doc);
      else result.textContent = "";
    }
    document.getElementById("apply-preview").addEventListener("click", (event) => { event.preventDefault(); run(false); });
    document.getElementById("apply-run").addEventListener("click", (event) => { event.preventDefault(); run(true); });
  }

  // Why?: each keystroke asks the server for the answer, rendered; it debounces a burst into one
  // explanation (of its newest text) and names the text it answers (data-answered). An answer is shown
  // only when it is for the text now in the box; requests can reach the server in another order than the
  // keystrokes, so an answer for another text while the box still holds this one means this one was not
  // the burst's newest there: it is asked again, alone.
  const whyBox = document.querySelector("[data-why]");
  if (whyBox) {
    async function ask(name, attempt) {
      const answer = await request("/why?fragment=why-result&name=" + encodeURIComponent(name));
      if (!answer || !answer.doc || whyBox.value.trim() !== name) return;
      const result = answer.doc.getElementById("why-result");
      if (result && result.dataset.answered === name) {
        flash.hidden = true;
        swapIn(answer.doc);
        history.replaceState(null, "", "/why?name=" + encodeURIComponent(name));
      } else if (attempt < 5) {
        ask(name, attempt + 1);
      }
    }
    whyBox.addEventListener("input", () => {
      const name = whyBox.value.trim();
      if (!name) { document.querySelector(whyBox.dataset.why).replaceChildren(); return; }
      ask(name, 0);
    });
  }

  // Traffic: the live feed of blocked names, newest first, each rendered by the server with its Allow
  // button (an exact allow rule, posted like the Sources page's rules). At most 200 items are kept.
  const feedSection = document.querySelector("[data-feed]");
  if (feedSection) {
    const list = document.getElementById("feed");
    const source = new EventSource(feedSection.dataset.feed);
    window.addEventListener("pagehide", () => source.close());
    source.addEventListener("hit", (event) => {
      const item = parse(event.data).body.firstElementChild;
      if (!item) return;
      const empty = document.getElementById("feed-empty");
      if (empty) empty.remove();
      list.prepend(document.importNode(item, true));
      while (list.children.length > 200) list.lastElementChild.remove();
    });
    source.addEventListener("fragment", (event) => swapIn(parse(event.data)));
  }
})();
