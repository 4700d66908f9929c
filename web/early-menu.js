// The menu before Python runs, on the built site. scripts/build puts the menus Python renders
// into <template id="tf-menu-KIND-LANG"> (trifront/ui/prerender.py); this shows the one that
// fits the remembered settings at first paint, and keeps what the player does meanwhile: each
// click on a [data-act] element and each typed [data-input] field goes into
// window.tfEarly.queue, which trifront/ui/main.py hands to the controller once Python runs
// (the same handlers as every later click). Until then a click only moves the highlight,
// switches the menu's opponent or language, and Start shows how far the start has come.
(() => {
  const app = document.getElementById("app");
  const template = (kind, lang) => document.getElementById(`tf-menu-${kind}-${lang}`);
  const params = new URLSearchParams(location.search);
  const stored = (key) => {
    try { return localStorage.getItem(key) ?? sessionStorage.getItem(key); } catch { return null; }
  };
  // A room, a replay link or a saved game open something other than the first menu: the
  // board, or (a game left by "Menu") the menu with "Continue the saved game", which these
  // prerendered menus lack, so Python draws either. The menus are a first visit's (the
  // tutorial offered): once it was taken or skipped, Python draws the menu (a later visit
  // starts from this browser's snapshot, ~1 s).
  if (!app || !template("cpu", "en") || params.get("room") || location.hash.includes("replay=")
      || stored("trifront:game") || stored("trifront:tutorial")) return;
  let settings = {};
  try { settings = JSON.parse(stored("trifront:settings") || "{}") || {}; } catch { settings = {}; }
  const langs = ["en", "ja"];
  const browser = (navigator.languages || [navigator.language])
    .map((tag) => String(tag).split(/[-_]/)[0].toLowerCase()).find((code) => langs.includes(code));
  let lang = [params.get("lang"), settings.lang, browser].find((code) => langs.includes(code)) || "en";
  const choice = {};
  for (const key of ["kind", "first", "mode", "strength"]) {
    if (typeof settings[key] === "string") choice[key] = settings[key];
  }
  if (!template(choice.kind || "cpu", lang)) choice.kind = "cpu";
  const early = window.tfEarly = { queue: [], taken: false };
  const inputs = {};
  let starting = false;

  const percent = () => {
    const bar = document.getElementById("loading-bar");
    return bar ? Math.round(bar.value) : 0;
  };
  const progress = () => {
    const words = template(choice.kind || "cpu", lang).dataset.gettingReady;
    const status = app.querySelector("#python-status");
    if (status) status.textContent = `${words} ${percent()}%`;
    const start = app.querySelector("#btn-start");
    if (starting && start) {
      start.setAttribute("aria-busy", "true");
      start.textContent = `${words} ${percent()}%`;
    }
  };
  const draw = () => {
    app.replaceChildren(template(choice.kind || "cpu", lang).content.cloneNode(true));
    document.documentElement.lang = lang;
    for (const button of app.querySelectorAll('[data-act="menu-set"]')) {
      const key = button.getAttribute("data-key");
      if (!(key in choice)) continue;
      const on = choice[key] === button.getAttribute("data-value");
      button.classList.toggle("tf-on", on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
      if (button.classList.contains("tf-seg")) {   // one Tab stop a row: the chosen option
        if (on) button.removeAttribute("tabindex");
        else button.setAttribute("tabindex", "-1");
      }
    }
    for (const field of app.querySelectorAll("[data-input]")) {
      const key = field.getAttribute("data-input");
      if (key in inputs) field.value = inputs[key];
    }
    progress();
  };
  const queue = (act, data) => {
    early.queue.push({ act, data });
    if (act === "menu-set") {
      choice[data.key] = data.value;
      draw();
    } else if (act === "lang") {
      lang = langs.includes(data.lang) ? data.lang : lang;
      draw();
    } else if (act === "start") {
      starting = true;
      progress();
    }
  };

  app.addEventListener("click", (event) => {
    if (early.taken) return;
    const el = event.target.closest && event.target.closest("[data-act]");
    if (!el || el.hasAttribute("disabled")) return;
    const data = {};
    for (const name of el.getAttributeNames()) {
      if (name.startsWith("data-") && name !== "data-act") data[name.slice(5)] = el.getAttribute(name);
    }
    queue(el.getAttribute("data-act"), data);
  });
  app.addEventListener("input", (event) => {
    const key = !early.taken && event.target.getAttribute && event.target.getAttribute("data-input");
    if (!key) return;
    inputs[key] = String(event.target.value);
    early.queue.push({ input: key, value: inputs[key] });
  });
  app.addEventListener("keydown", (event) => {
    if (!early.taken && event.key === "Enter" && event.target.hasAttribute
        && event.target.hasAttribute("data-input")) {
      event.preventDefault();
      queue(event.target.getAttribute("data-enter") || "start", {});
    }
  });
  const timer = setInterval(() => {
    if (early.taken) { clearInterval(timer); return; }
    progress();
  }, 250);

  draw();
  document.getElementById("loading").hidden = true;
  app.hidden = false;
  app.setAttribute("data-early", "1");
})();
