"""Main-thread side of the API probe: runs the snippets docs/TESTING.md quotes and writes
what happened to #results as JSON (test_pyscript_api.py asserts each fact)."""

import asyncio
import json
import time

import js
from pyscript import document, web, when, workers
from pyscript.ffi import create_proxy

R = {}
clicks = {}


def fact(name):
    """Run a probe; store its return value, or the exception's type and message."""
    def run(fn):
        try:
            R[name] = fn()
        except Exception as exc:  # noqa: BLE001
            R[name] = f"raised {type(exc).__name__}: {exc}"
        return fn
    return run


def count(key):
    clicks[key] = clicks.get(key, 0) + 1
    web.page["clicks"].textContent = json.dumps(clicks, sort_keys=True)


sandbox = web.page["sandbox"]
sandbox.append(web.pre("{}", id="clicks"))


# --- creating elements, text and HTML --------------------------------------------------------
@fact("string_child_is_html")
def _():
    return web.div("a <b>bold</b> & <i>x</i>").innerHTML


@fact("append_string_is_text")
def _():
    d = web.div()
    d.append("a <b>bold</b>")
    return d.innerHTML


@fact("textContent_is_text")
def _():
    d = web.div()
    d.textContent = "<b>x</b>"
    return d.innerHTML


# --- attributes ------------------------------------------------------------------------------
@fact("kwarg_data_ready_sets_attribute")
def _():
    return web.div(data_ready="1").getAttribute("data-ready")


@fact("setAttribute_data")
def _():
    d = web.div()
    d.setAttribute("data-ready", "1")
    return d.outerHTML


@fact("dataset_assignment")
def _():
    d = web.div()
    d.dataset.cardId = "12"
    return d.outerHTML


@fact("kwargs_properties")
def _():
    b = web.button("Go", id="b1", title="tip", disabled=True, type="button", hidden=True,
                   ariaLabel="go now")
    return b.outerHTML


@fact("for_and_class_underscore")
def _():
    return web.label("L", for_="x", class_="lab").outerHTML


@fact("input_value")
def _():
    i = web.input_(type="number", value=3, min=0)
    return [i.outerHTML, i.value]


@fact("missing_id_is_None")
def _():
    return web.page["no-such-id"] is None


@fact("svg_tag_available")
def _():
    return hasattr(web, "svg")


# --- classes ---------------------------------------------------------------------------------
@fact("classes_kwarg_and_set")
def _():
    d = web.div(classes=["card", "up"])
    d.classes.add("chosen")
    d.classes.discard("up")
    return [d.className, "card" in d.classes]


@fact("classes_string_with_spaces")
def _():
    d = web.div(classes="a b")
    return d.className


@fact("classes_stale_after_className")
def _():
    d = web.div(classes=["a"])
    _ = d.classes  # creates the cached set
    d.className = "z"
    return ["z" in d.classes, "a" in d.classes, d.className]


@fact("classList_toggle")
def _():
    d = web.div(classes=["a"])
    d.classList.toggle("sel", True)
    d.classList.toggle("a", False)
    return d.className


@fact("existing_element_classes")
def _():
    return sorted(web.page["existing"].classes)


# --- style -----------------------------------------------------------------------------------
@fact("style_dict")
def _():
    d = web.div(style={"color": "red", "grid-column": "2"})
    d.style["opacity"] = 0.5
    return d.getAttribute("style")


@fact("style_read_on_fresh_wrapper")
def _():
    d = web.div(style={"color": "red"}, id="styled")
    sandbox.append(d)
    return web.page["styled"].style["color"]


# --- children --------------------------------------------------------------------------------
@fact("append_list_and_several")
def _():
    d = web.div()
    d.append([web.span("1"), web.span("2")], web.span("3"), "4", 5)
    return d.innerHTML


@fact("replace_children_innerHTML_then_append")
def _():
    d = web.div(web.span("old"))
    d.innerHTML = ""
    d.append(web.span("new"))
    return d.innerHTML


@fact("replaceChildren_with_dom_elements")
def _():
    d = web.div(web.span("old"))
    d.replaceChildren(*[e._dom_element for e in (web.b("x"), web.i("y"))])
    return d.innerHTML


@fact("replaceChildren_with_wrappers")
def _():
    d = web.div(web.span("old"))
    d.replaceChildren(web.b("x"))
    return d.innerHTML


@fact("replaceChildren_empty")
def _():
    d = web.div(web.span("old"))
    d.replaceChildren()
    return d.innerHTML


@fact("children_and_indexing")
def _():
    d = web.ul(web.li("a", id="la"), web.li("b"))
    return [len(d.children), d[0].textContent, d["la"].textContent, d.find("li")[1].textContent]


@fact("elements_hashable")
def _():
    return len({web.div()})


@fact("element_equality_by_dom_node")
def _():
    return web.page["existing"] == web.page["existing"]


@fact("tag_of_wrapped")
def _():
    return [type(web.page["existing"]).__name__, web.page["existing"].tagName]


# --- events ----------------------------------------------------------------------------------
b_kwarg = web.button("kwarg", id="btn-kwarg", on_click=lambda event: count("kwarg"))


async def async_handler(event):
    await asyncio.sleep(0)
    count("async_kwarg")


b_async = web.button("async", id="btn-async", on_click=async_handler)
b_when = web.button("when", id="btn-when")


@when("click", b_when)
def _(event):
    count("when_element")


b_listener = web.button("listener", id="btn-listener")
b_listener.on_click.add_listener(lambda event: count("add_listener"))

b_noarg = web.button("noarg", id="btn-noarg")


@when("click", b_noarg)
def _():
    count("when_no_arg")


# on_click= calls the handler with the event: a handler taking no argument raises TypeError.
b_noarg_kwarg = web.button("noarg kwarg", id="btn-noarg-kwarg", on_click=lambda: count("never"))

b_target = web.button("target", id="btn-target", data_x="unused")
b_target.setAttribute("data-card", "7")


@when("click", b_target)
def _(event):
    count("target_" + event.currentTarget.getAttribute("data-card"))


# Delegation: one handler on a container, the clicked child found by data attribute.
board = web.div(
    web.button("card 3", data_action="play", **{"id": "card-3"}),
    web.button(web.span("card 4 (inner span)", id="card-4-span"), id="card-4"),
    id="board",
)
board.find("#card-3")[0].setAttribute("data-card", "3")
board.find("#card-4")[0].setAttribute("data-card", "4")


@when("click", board)
def _(event):
    hit = event.target.closest("[data-card]")
    if hit is not None:
        count("delegated_" + hit.getAttribute("data-card"))


sandbox.append(b_kwarg, b_async, b_when, b_listener, b_noarg, b_noarg_kwarg, b_target, board)


@fact("when_selector_before_element_exists")
def _():
    @when("click", "#not-yet-there")
    def handler(event):
        pass
    return "ok"


@fact("raw_addEventListener_with_create_proxy")
def _():
    b = web.button("raw", id="btn-raw")
    b.addEventListener("click", create_proxy(lambda event: count("raw_proxy")))
    sandbox.append(b)
    return "ok"


# --- rebuilding speed ------------------------------------------------------------------------
@fact("build_500_with_web_ms")
def _():
    host = web.div(id="speed1")
    sandbox.append(host)
    t = time.perf_counter()
    host.append([web.div(web.span(str(i), classes=["n"]), classes=["cell"]) for i in range(500)])
    return round((time.perf_counter() - t) * 1000)


@fact("build_500_with_innerHTML_ms")
def _():
    host = web.div(id="speed2")
    sandbox.append(host)
    t = time.perf_counter()
    host.innerHTML = "".join(f'<div class="cell"><span class="n">{i}</span></div>' for i in range(500))
    return round((time.perf_counter() - t) * 1000)


# --- the worker ------------------------------------------------------------------------------
t0 = time.perf_counter()
probe = await workers["probe"]  # noqa: F704
R["worker_wait_ms"] = round((time.perf_counter() - t0) * 1000)
R["workers_attr_same"] = (await workers.probe) is not None  # noqa: F704


async def wfact(name, coro):
    try:
        value = await coro
        if hasattr(value, "to_py"):
            value = {"jsproxy": type(value).__name__, "to_py": value.to_py()}
        R[name] = value
    except Exception as exc:  # noqa: BLE001
        R[name] = f"raised {type(exc).__name__}: {str(exc)[:300]}"


await wfact("w_echo_json_string", probe.echo(json.dumps({"a": [1, 2]})))  # noqa: F704
await wfact("w_echo_int", probe.echo(7))  # noqa: F704
await wfact("w_echo_list", probe.echo([1, "x", None]))  # noqa: F704
await wfact("w_echo_dict", probe.echo({"a": [1, 2], "b": None}))  # noqa: F704
await wfact("w_echo_dict_to_js", probe.echo(  # noqa: F704
    js.JSON.parse(json.dumps({"a": [1, 2]}))))
await wfact("w_return_dict", probe.give_dict())  # noqa: F704
await wfact("w_exception", probe.fail("boom"))  # noqa: F704
await wfact("w_async_function", probe.later(10, "late"))  # noqa: F704
await wfact("w_touch_document", probe.touch_document())  # noqa: F704


async def gather_order():
    done = []

    async def call(coro):
        done.append(await coro)

    await asyncio.gather(call(probe.later(100, "slow")), call(probe.later(1, "fast")))
    return done
await wfact("w_concurrent_async_calls_finish_in_order", gather_order())  # noqa: F704


async def round_trips():
    t = time.perf_counter()
    for _ in range(50):
        await probe.echo(1)
    return round((time.perf_counter() - t) * 1000 / 50, 2)
await wfact("w_round_trip_ms", round_trips())  # noqa: F704


async def responsive_while_busy():
    ticks = 0
    task = asyncio.ensure_future(probe.busy(1000))
    t = time.perf_counter()
    while not task.done():
        await asyncio.sleep(0.05)
        ticks += 1
    await task
    return {"main_ticks_of_50ms": ticks, "elapsed_ms": round((time.perf_counter() - t) * 1000)}
await wfact("w_main_responsive_during_1s_busy", responsive_while_busy())  # noqa: F704


# Main -> worker callback via the worker's `sync` (the <script> element's xworker).
xworker = document.querySelector('script[type="py"][worker][name="probe"]').xworker
R["xworker_present"] = xworker is not None
try:
    xworker.sync.double = lambda x: x * 2
    await wfact("w_call_main_via_sync", probe.call_main(21))  # noqa: F704
except Exception as exc:  # noqa: BLE001
    R["w_call_main_via_sync"] = f"raised {type(exc).__name__}: {exc}"

# A worker whose file raises at top level: does `await workers[...]` resolve? Do calls fail?
async def broken_worker():
    t = time.perf_counter()
    try:
        w = await asyncio.wait_for(asyncio.ensure_future(workers["broken"]), 20)
    except Exception as exc:  # noqa: BLE001
        return f"await raised {type(exc).__name__} after {time.perf_counter() - t:.1f} s"
    try:
        return f"resolved; never() -> {await asyncio.wait_for(asyncio.ensure_future(w.never()), 5)}"
    except Exception as exc:  # noqa: BLE001
        return f"resolved; never() raised {type(exc).__name__}: {str(exc)[:120]}"
await wfact("w_broken_worker", broken_worker())  # noqa: F704

R["cross_origin_isolated"] = bool(js.crossOriginIsolated)
R["shared_array_buffer"] = hasattr(js, "SharedArrayBuffer")

out = web.page["results"]
out.textContent = json.dumps(R, indent=1, sort_keys=True, default=repr)
out.setAttribute("data-done", "1")
