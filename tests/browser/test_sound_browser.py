"""The table's sounds in Chromium: synthesised with WebAudio (every oscillator the page starts
is counted), nothing before the player's first click, nothing while the switch is off, and the
switch remembered across a reload. (What each change sounds like: tests/ui/test_sound.py.)"""

from __future__ import annotations

from harness import boot, shot, take_turn, wait_cpu

COUNT_TONES = """(() => {
  window.__tones = 0;
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () { window.__tones++; return make.call(this); };
})();"""

MY_TURN = '#screen-board[data-to-move="0"]:not([data-thinking])'


def test_sounds_follow_the_game_and_the_switch_is_remembered(page, app_url):
    page.add_init_script(COUNT_TONES)
    boot(page, app_url + "?seed=7&cpu_delay=0")
    wait_cpu(page)
    assert page.evaluate("window.__tones") == 0              # no sound before a click
    assert page.get_attribute("#btn-sound", "aria-pressed") == "true"
    page.click("#opt-strength-easy")
    page.click("#opt-first-0")
    page.click("#btn-start")
    page.wait_for_selector(MY_TURN)
    take_turn(page)
    page.wait_for_selector(MY_TURN + ", #screen-round, #screen-over")
    heard = page.evaluate("window.__tones")
    assert heard > 0                                          # the play, the CPU's answer
    page.click("#btn-sound")
    assert page.get_attribute("#btn-sound", "aria-pressed") == "false"
    shot(page, "sound-muted-board", animations="disabled")
    if page.locator(MY_TURN).count():
        take_turn(page)
        page.wait_for_selector(MY_TURN + ", #screen-round, #screen-over")
    assert page.evaluate("window.__tones") == heard           # muted: not a tone
    page.reload()
    page.wait_for_selector('#app[data-ready="1"]', state="attached")
    page.wait_for_selector("#btn-sound")
    assert page.get_attribute("#btn-sound", "aria-pressed") == "false"
