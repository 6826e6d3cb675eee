"""A real SMTP server in the test process (aiosmtpd), for the tests of the site's e-mail: the
session's Celery worker sends to it (tests/conftest.py `smtp_server`), and tests read what
arrived, make it refuse the next messages (a 4xx answer), or hold the next one until the test
lets it go (to kill the worker sending it).
"""

from __future__ import annotations

import asyncio
import email
import socket
import threading
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import default
from typing import Any

from aiosmtpd.controller import Controller


@dataclass
class Hold:
    """The next message's DATA, held: ``arrived`` is set once it is held; after ``release()``
    the server answers 421 and closes, keeping nothing (as a server that lost the message
    would), unless ``accept`` is set first."""

    arrived: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)
    accept: bool = False

    def release(self) -> None:
        self.released.set()


class SmtpSink:
    """What arrived (``messages``, parsed, in order of arrival) and what the next DATA commands
    meet: ``refuse(n)`` answers 451 to the next n, ``hold()`` holds the next one."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = _free_port(host)
        self.messages: list[EmailMessage] = []
        self.refused: list[EmailMessage] = []
        self._refuse = 0
        self._hold: Hold | None = None
        self._lock = threading.Lock()
        self._controller = Controller(self, hostname=host, port=self.port)

    def start(self) -> None:
        self._controller.start()

    def stop(self) -> None:
        self._controller.stop()

    def refuse(self, n: int = 1) -> None:
        with self._lock:
            self._refuse = n

    def hold(self) -> Hold:
        hold = Hold()
        with self._lock:
            self._hold = hold
        return hold

    def to(self, address: str) -> list[EmailMessage]:
        """The messages that arrived for ``address``."""
        with self._lock:
            return [m for m in self.messages if address in str(m["To"])]

    def with_id(self, message_id: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.messages if m["Message-ID"] == message_id]

    def wait(self, predicate: Any, timeout: float = 30) -> list[EmailMessage]:
        """Wait until ``predicate(messages)`` holds; the messages (what arrived by then)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                got = list(self.messages)
            if predicate(got) or time.monotonic() > deadline:
                return got
            time.sleep(0.1)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=default)
        assert isinstance(message, EmailMessage)
        with self._lock:
            hold, self._hold = self._hold, None
            refuse = self._refuse > 0
            if refuse and hold is None:
                self._refuse -= 1
                self.refused.append(message)
        if hold is not None:
            hold.arrived.set()
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, hold.released.wait, 120)
            if not hold.accept:
                return "421 Service not available, closing transmission channel"
        elif refuse:
            return "451 Requested action aborted: try again later"
        with self._lock:
            self.messages.append(message)
        return "250 Message accepted for delivery"


def _free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def body_of(message: EmailMessage) -> str:
    """The text of ``message`` (decoded)."""
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())
