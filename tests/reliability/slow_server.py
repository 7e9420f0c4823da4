"""A loopback HTTP server that answers one byte at a time (a slow or hostile server)."""

from __future__ import annotations

import socket
import threading
import time

#: Headers, then the start of a body, trickled byte by byte (the connection then closes short
#: of the declared length): about 40 s at 10 bytes a second.
RESPONSE = (b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nX-Pad: "
            + b"p" * 200 + b"\r\nContent-Length: 100000\r\n\r\n%PDF-1.7\n" + b"0" * 100)


class TricklingServer:
    """Serve :data:`RESPONSE` at ``bytes_per_second`` to every connection (each its thread).

    ``sent`` records, per connection, how many bytes went out before the client hung up.
    """

    def __init__(self, bytes_per_second: float = 1.0) -> None:
        self.interval = 1.0 / bytes_per_second
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        self.sent: list[int] = []
        self.connections = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        """Base URL."""
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> TricklingServer:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.sock.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        sent = 0
        try:
            conn.settimeout(10)
            request = b""
            while b"\r\n\r\n" not in request:
                part = conn.recv(4096)
                if not part:
                    return
                request += part
            for byte in RESPONSE:
                if self._stop.is_set():
                    break
                conn.sendall(bytes([byte]))
                sent += 1
                time.sleep(self.interval)
        except OSError:
            pass  # the client hung up: what we measure
        finally:
            with self._lock:
                self.sent.append(sent)
            conn.close()
