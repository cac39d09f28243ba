"""``meldhall play`` driven through a pseudo-terminal for one whole hand of Sichuan."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

from meldhall.play_cli import PROMPT

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
MENU_ZERO = re.compile(r"^\s+0  (\S.*?)(?:\s{2,}|$)", re.MULTILINE)


class Terminal:
    """The person's side of a pty: everything printed, read up to the next prompt."""

    def __init__(self, argv: list[str]):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, close_fds=True, env=env
        )
        os.close(slave)
        self.master = master
        self.raw = ""

    def until_prompt(self, timeout: float = 20.0) -> str:
        """Return the plain text printed since the last answer, up to the prompt (or up to
        the end of the program)."""
        start = len(self.raw)
        deadline = time.monotonic() + timeout
        while PROMPT.strip() not in ANSI.sub("", self.raw[start:]):
            ready, _, _ = select.select([self.master], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                raise AssertionError(f"no prompt within {timeout} s; screen:\n{self.raw[-2000:]}")
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the program ended and closed the terminal
                break
            if not chunk:
                break
            self.raw += chunk.decode("utf-8", "replace")
        return ANSI.sub("", self.raw[start:]).replace("\r", "")

    def answer(self, text: str) -> None:
        """Type ``text`` and Enter."""
        os.write(self.master, (text + "\n").encode())


def test_a_whole_sichuan_hand_in_a_terminal() -> None:
    argv = [sys.executable, "-m", "meldhall.cli", "play", "sichuan", "--seed", "pty"]
    term = Terminal([*argv, "--bots", "random", "--seat", "1"])
    try:
        screen = term.until_prompt()
        assert "sichuan  hand 1  phase declare" in screen
        assert re.search(r"you:\s+(\d[mps] ?){13}", screen), screen
        assert "seat 0" in screen and "you " in screen
        assert "\x1b[1;31m" in term.raw  # characters drawn in red, bamboo in green
        term.answer("?")
        assert "missing suit" in term.until_prompt()
        term.answer("declare s")
        decisions = 1
        screen = term.until_prompt()
        while "hand over" not in screen:
            assert "not possible" not in screen, screen
            assert "last moves:" in screen and "  0  " in screen
            first = MENU_ZERO.search(screen)
            assert first is not None, screen
            # every other decision names the move by its text form instead of its number
            term.answer(first.group(1) if decisions % 2 else "0")
            decisions += 1
            screen = term.until_prompt()
            assert decisions < 300, "the hand did not end"
        settlement = screen[screen.index("hand over") :]
        assert "termination" in settlement and "scores" in settlement
        assert re.search(r"you: (\d[mps] ?)+", settlement)
        term.answer("q")
        assert term.proc.wait(timeout=20) == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
        os.close(term.master)
