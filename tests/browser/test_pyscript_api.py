"""Facts about PyScript 0.7.31's pyscript.web and named workers that docs/TESTING.md states.

The probe page (pages/probe.html + probe_main.py + probe_worker.py) runs each snippet in the
browser and writes its outcome to #results as JSON; these tests pin them, so an upgrade of
@pyscript/core that changes one is noticed. Print everything: pytest -s -k probe_dump
"""

from __future__ import annotations

import json

import pytest
from harness import BOOT_TIMEOUT_MS

PROBE = "tests/browser/pages/probe.html"


@pytest.fixture(scope="module")
def probe(browser, server):
    """The probe page, booted once for the module: (page, results, console errors)."""
    ctx = browser.new_context()
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    foreign = []
    ctx.on("request", lambda r: None if r.url.startswith((server.origin, "blob:", "data:"))
           else foreign.append(r.url))
    pg.goto(server.url + PROBE)
    pg.wait_for_selector('#results[data-done="1"]', state="attached", timeout=BOOT_TIMEOUT_MS)
    results = json.loads(pg.inner_text("#results"))
    assert not foreign, foreign
    yield pg, results, errors
    ctx.close()


@pytest.fixture(scope="module")
def r(probe):
    return probe[1]


def test_probe_dump(r):
    print(json.dumps(r, indent=1, sort_keys=True))


def test_text_and_html(r):
    # A str positional child of web.div(...) is parsed as HTML (insertAdjacentHTML)...
    assert r["string_child_is_html"] == "a <b>bold</b> &amp; <i>x</i>"
    # ...but el.append("...") and el.textContent = "..." insert plain text.
    assert r["append_string_is_text"] == "a &lt;b&gt;bold&lt;/b&gt;"
    assert r["textContent_is_text"] == "&lt;b&gt;x&lt;/b&gt;"


def test_attributes(r):
    # Keyword arguments set DOM *properties*: data_ready= does not make a data-ready attribute.
    assert r["kwarg_data_ready_sets_attribute"] is None
    assert r["setAttribute_data"] == '<div data-ready="1"></div>'
    assert r["dataset_assignment"] == '<div data-card-id="12"></div>'
    assert r["kwargs_properties"] == ('<button id="b1" title="tip" disabled="" type="button" '
                                      'hidden="" aria-label="go now">Go</button>')
    assert r["for_and_class_underscore"] == '<label for="x" class="lab">L</label>'
    assert r["input_value"] == ['<input type="number" min="0">', "3"]  # value is a property
    assert r["missing_id_is_None"] is True
    assert r["svg_tag_available"] is False


def test_classes(r):
    assert r["classes_kwarg_and_set"] == ["card chosen", True]
    assert r["classes_string_with_spaces"] == "a b"
    # el.classes is a Python set cached on the wrapper: it goes stale if className changes.
    assert r["classes_stale_after_className"] == [False, True, "z"]
    assert r["classList_toggle"] == "sel"
    assert r["existing_element_classes"] == ["one", "two"]


def test_style(r):
    assert r["style_dict"] == "color: red; grid-column: 2; opacity: 0.5;"
    # el.style only knows what was set through the same wrapper.
    assert r["style_read_on_fresh_wrapper"] == "raised KeyError: 'color'"


def test_children(r):
    assert r["append_list_and_several"] == "<span>1</span><span>2</span><span>3</span>45"
    assert r["replace_children_innerHTML_then_append"] == "<span>new</span>"
    assert r["replaceChildren_with_dom_elements"] == "<b>x</b><i>y</i>"
    # Passing wrappers to a DOM method inserts their repr as text.
    assert r["replaceChildren_with_wrappers"].startswith("&lt;pyscript.web.b object at")
    assert r["replaceChildren_empty"] == ""
    assert r["children_and_indexing"] == [2, "a", "a", "b"]
    assert r["elements_hashable"].startswith("raised TypeError")
    assert r["element_equality_by_dom_node"] is True
    assert r["tag_of_wrapped"] == ["div", "DIV"]


def test_when_needs_existing_elements(r):
    assert r["when_selector_before_element_exists"] == \
        "raised ValueError: No elements found for selector: #not-yet-there"


def test_clicks(probe):
    pg, _, errors = probe
    for button in ("#btn-kwarg", "#btn-async", "#btn-when", "#btn-listener", "#btn-noarg",
                   "#btn-target", "#card-3", "#card-4-span", "#btn-raw", "#btn-noarg-kwarg"):
        pg.click(button)
    pg.wait_for_function("() => document.getElementById('clicks').textContent.includes('raw')")
    pg.wait_for_timeout(300)
    assert json.loads(pg.inner_text("#clicks")) == {
        "kwarg": 1, "async_kwarg": 1, "when_element": 1, "add_listener": 1, "when_no_arg": 1,
        "target_7": 1, "delegated_3": 1, "delegated_4": 1, "raw_proxy": 1}
    # on_click=lambda: ... (no parameter) fails at click time, only in the console.
    assert any("takes 0 positional arguments but 1 was given" in e for e in errors), errors


def test_worker_calls(r):
    assert r["cross_origin_isolated"] is False and r["shared_array_buffer"] is False
    assert json.loads(r["w_echo_json_string"]) == {
        "type": "str", "value": '{"a": [1, 2]}', "in_worker": True}
    assert json.loads(r["w_echo_int"])["type"] == "int"
    # Lists and dicts arrive in the worker as JsProxy (call .to_py()).
    assert json.loads(r["w_echo_list"]) == {"type": "JsProxy", "value": [1, "x", None],
                                            "in_worker": True}
    assert json.loads(r["w_echo_dict"])["type"] == "JsProxy"
    # A dict returned by the worker arrives on main as a JsProxy too.
    assert r["w_return_dict"] == {"jsproxy": "JsProxy", "to_py": {"a": [1, 2], "b": {"c": None}}}
    # An exception in the worker becomes a JsException whose text holds the traceback.
    assert r["w_exception"].startswith("raised JsException: Error: Traceback")
    assert "ValueError: boom" in r["w_exception"]
    assert r["w_async_function"] == "late"
    assert r["w_concurrent_async_calls_finish_in_order"] == ["fast", "slow"]
    assert "SharedArrayBuffer" in r["w_touch_document"]
    assert r["w_call_main_via_sync"] == "ok: 42 (awaitable: True)"
    # a call answers at once, not after some timer or poll (2 shared cores: no tight bound;
    # the figure is printed)
    print(f"\nworker round trip {r['w_round_trip_ms']:.1f} ms")
    assert r["w_round_trip_ms"] < 1000


def test_main_thread_stays_responsive_while_the_worker_computes(r):
    busy = r["w_main_responsive_during_1s_busy"]
    # the worker's 1 s, timed on the main thread: two threads' clocks, each coarsened by
    # the browser (999 ms has been seen), so only "about a second"
    assert busy["elapsed_ms"] >= 950, busy
    # a blocked main thread would tick once, after the worker; 20 is the ideal, and a busy
    # machine loses some
    print(f"\nmain thread ticks during 1 s of worker work: {busy['main_ticks_of_50ms']}")
    assert busy["main_ticks_of_50ms"] >= 5, busy


def test_a_failing_worker_still_resolves_but_its_calls_fail(r):
    assert r["w_broken_worker"].startswith("resolved; never() raised JsException: TypeError")
