(function () {
  "use strict";
  // Tabs, and search over the memories carried in the page. Data comes only from the JSON block (JSON.parse)
  // and reaches the page only through textContent and createElement: never as markup.
  var PAGE = 60;
  var DOMAINS = ["user", "self", "relationship", "world"];
  var source = document.getElementById("dashboard-data");
  var data = { memories: [], total: 0, listed: 0, today: "" };
  try {
    data = JSON.parse(source.textContent);
  } catch (err) {
    data.error = true;
  }
  var memories = Array.isArray(data.memories) ? data.memories : [];

  // --- tabs ---------------------------------------------------------------------------------------------------
  var tabs = Array.prototype.slice.call(document.querySelectorAll('[role="tab"]'));

  function select(tab, focus) {
    tabs.forEach(function (t) {
      var on = t === tab;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      document.getElementById(t.getAttribute("aria-controls")).hidden = !on;
    });
    if (focus) tab.focus();
    var name = tab.id.replace(/^tab-/, "");
    if (window.location.hash !== "#" + name && window.history && window.history.replaceState) {
      try { window.history.replaceState(null, "", "#" + name); } catch (err) { /* file:// may refuse; harmless */ }
    }
    if (name === "memories") ensureRendered();
  }

  tabs.forEach(function (tab, i) {
    tab.addEventListener("click", function () { select(tab, false); });
    tab.addEventListener("keydown", function (event) {
      var next = null;
      if (event.key === "ArrowRight") next = tabs[(i + 1) % tabs.length];
      if (event.key === "ArrowLeft") next = tabs[(i - 1 + tabs.length) % tabs.length];
      if (next) { event.preventDefault(); select(next, true); }
    });
  });

  function fromHash() {
    var wanted = document.getElementById("tab-" + window.location.hash.replace(/^#/, ""));
    select(tabs.indexOf(wanted) >= 0 ? wanted : tabs[0], false);
  }
  window.addEventListener("hashchange", fromHash);

  // --- memory cards -------------------------------------------------------------------------------------------
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function fmt(n) {
    return Number(n).toLocaleString("en-US");
  }

  // Puts `text` into `parent`, wrapping the query's words in <mark> elements (text nodes only).
  function highlighted(parent, text, terms) {
    text = String(text);
    var lower = text.toLowerCase();
    if (!terms.length || lower.length !== text.length) {
      parent.appendChild(document.createTextNode(text));
      return parent;
    }
    var at = 0;
    while (at < text.length) {
      var best = -1, size = 0;
      terms.forEach(function (term) {
        var found = lower.indexOf(term, at);
        if (found >= 0 && (best < 0 || found < best || (found === best && term.length > size))) {
          best = found; size = term.length;
        }
      });
      if (best < 0) break;
      if (best > at) parent.appendChild(document.createTextNode(text.slice(at, best)));
      parent.appendChild(el("mark", null, text.slice(best, best + size)));
      at = best + size;
    }
    if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
    return parent;
  }

  function card(m, terms) {
    var tier = ["core", "active", "background", "archive"].indexOf(m.tier) >= 0 ? m.tier : "archive";
    var article = el("article", "mem t-" + tier);
    var side = el("div", "mem-score");
    side.title = "importance today: " + Number(m.importance).toFixed(3) + " (" + tier + ")";
    side.appendChild(el("span", "score", Number(m.importance).toFixed(2)));
    var meter = el("span", "meter");
    var fill = el("i");
    fill.style.width = Math.max(0, Math.min(100, m.importance * 100)).toFixed(1) + "%";
    meter.appendChild(fill);
    side.appendChild(meter);
    article.appendChild(side);

    var body = el("div", "mem-body");
    body.appendChild(highlighted(el("p", "mem-content"), m.content, terms));
    var meta = el("p", "mem-meta");
    meta.appendChild(el("span", "tag d-" + (DOMAINS.indexOf(m.domain) >= 0 ? m.domain : "other"), m.domain));
    meta.appendChild(highlighted(el("span"), m.category, terms));
    meta.appendChild(el("span", null, "reinforced " + m.reinforced + "×"));
    var used = "last used " + (m.lastAccessed || "never");
    if (m.idleDays !== null && m.idleDays !== undefined) {
      used += m.idleDays === 0 ? " (today)" : " (" + m.idleDays + " d ago)";
    }
    meta.appendChild(el("span", null, used));
    if (m.created) meta.appendChild(el("span", null, "created " + m.created));
    if (m.dates && m.dates.length) {
      var about = m.dates.map(function (d) {
        return d.words + " (" + (d.from === d.to ? d.from : d.from + " – " + d.to) + ")";
      });
      meta.appendChild(el("span", null, "refers to " + about.join(", ")));
    }
    if (m.pinned) meta.appendChild(el("span", "flag", "pinned"));
    if (m.untrusted) meta.appendChild(el("span", "flag warn", "untrusted source"));
    meta.appendChild(el("span", "mem-id", m.id));
    body.appendChild(meta);

    if (m.keywords && m.keywords.length) {
      var chips = el("p", "chips");
      m.keywords.forEach(function (k) { chips.appendChild(highlighted(el("span", "chip"), k, terms)); });
      body.appendChild(chips);
    }
    if (m.history && m.history.length) {
      var before = el("details", "history");
      var count = m.history.length === 1 ? "1 earlier value" : m.history.length + " earlier values";
      before.appendChild(el("summary", null, count));
      var changes = el("ul");
      m.history.forEach(function (h) {
        var item = highlighted(el("li"), h.content, terms);
        item.appendChild(el("span", "held", h.from ? " (" + h.from + " – " + h.until + ")" : " (until " + h.until + ")"));
        changes.appendChild(item);
      });
      before.appendChild(changes);
      body.appendChild(before);
    }
    if (m.sourceCount) {
      var details = el("details", "sources");
      details.appendChild(el("summary", null, m.sourceCount === 1 ? "1 source" : m.sourceCount + " sources"));
      var list = el("ul");
      (m.sources || []).forEach(function (s) {
        var parts = [];
        Object.keys(s).forEach(function (key) { parts.push(key + " " + s[key]); });
        list.appendChild(el("li", null, parts.join(" · ")));
      });
      if (m.sourceCount > (m.sources || []).length) {
        list.appendChild(el("li", null, "and " + (m.sourceCount - (m.sources || []).length) + " more"));
      }
      details.appendChild(list);
      body.appendChild(details);
    }
    article.appendChild(body);
    return article;
  }

  // --- search and filters -------------------------------------------------------------------------------------
  var search = document.getElementById("search");
  var domainFilter = document.getElementById("domain-filter");
  var sortOrder = document.getElementById("sort");
  var tierButtons = Array.prototype.slice.call(document.querySelectorAll(".seg[data-tier]"));
  var list = document.getElementById("memory-list");
  var counter = document.getElementById("result-count");
  var more = document.getElementById("show-more");
  var state = { tier: "", shown: 0, results: [], terms: [], rendered: false };

  var haystacks = memories.map(function (m) {
    var before = (m.history || []).map(function (h) { return h.content; }).join(" \n ");
    return [m.content, (m.keywords || []).join(" "), m.category, m.domain, m.id, before].join(" \n ").toLowerCase();
  });

  var orders = {
    importance: null,
    recent: function (a, b) { return String(b.lastAccessed || "").localeCompare(String(a.lastAccessed || "")); },
    reinforced: function (a, b) { return (b.reinforced || 0) - (a.reinforced || 0); },
    created: function (a, b) { return String(b.created || "").localeCompare(String(a.created || "")); }
  };

  function apply() {
    var query = (search.value || "").toLowerCase().trim();
    var terms = query ? query.split(/\s+/).filter(Boolean) : [];
    var domain = domainFilter.value;
    var results = [];
    for (var i = 0; i < memories.length; i++) {
      var m = memories[i];
      if (domain && m.domain !== domain) continue;
      if (state.tier && m.tier !== state.tier) continue;
      var hay = haystacks[i], ok = true;
      for (var j = 0; j < terms.length; j++) {
        if (hay.indexOf(terms[j]) < 0) { ok = false; break; }
      }
      if (ok) results.push(m);
    }
    var order = orders[sortOrder.value];
    if (order) results = results.slice().sort(order);
    state.results = results;
    state.terms = terms;
    state.shown = 0;
    while (list.firstChild) list.removeChild(list.firstChild);
    renderMore();
    var filtered = terms.length || domain || state.tier;
    var scope = data.listed < data.total
      ? "the " + fmt(data.listed) + " most important of " + fmt(data.total) + " memories"
      : fmt(data.total) + (data.total === 1 ? " memory" : " memories");
    counter.textContent = filtered
      ? fmt(results.length) + (results.length === 1 ? " match" : " matches") + " among " + scope + "."
      : "Showing " + scope + ".";
    if (!results.length) {
      list.appendChild(el("p", "empty", memories.length ? "No memory matches. Try fewer words or another filter."
                                                         : "No memories yet."));
    }
  }

  function renderMore() {
    var end = Math.min(state.results.length, state.shown + PAGE);
    var batch = document.createDocumentFragment();
    for (var i = state.shown; i < end; i++) batch.appendChild(card(state.results[i], state.terms));
    list.appendChild(batch);
    state.shown = end;
    more.hidden = state.shown >= state.results.length;
    more.textContent = "Show more (" + fmt(state.results.length - state.shown) + " left)";
  }

  function ensureRendered() {
    if (!state.rendered) { state.rendered = true; apply(); }
  }

  var timer = null;
  search.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(apply, memories.length > 500 ? 120 : 0);
  });
  domainFilter.addEventListener("change", apply);
  sortOrder.addEventListener("change", apply);
  more.addEventListener("click", renderMore);
  tierButtons.forEach(function (button) {
    button.addEventListener("click", function () {
      state.tier = button.getAttribute("data-tier") || "";
      tierButtons.forEach(function (b) { b.setAttribute("aria-pressed", b === button ? "true" : "false"); });
      apply();
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "/" && document.activeElement !== search) {
      event.preventDefault();
      select(document.getElementById("tab-memories"), false);
      search.focus();
    }
  });

  fromHash();
  document.documentElement.setAttribute("data-ready", data.error ? "error" : "yes");
})();
