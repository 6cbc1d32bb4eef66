"""The server's public HTTP API, as the runner uses it (``http.client``, one connection per request).
Every answer goes through the checked reader and comes back as an ``HttpOutcome`` value; no network
problem or odd answer raises. ``abort()`` closes the requests in flight (a long-poll while stopping)."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from typing import Any, Dict, List, Optional, Set
from urllib.parse import quote, urlencode, urlsplit

from . import wire_shapes as shapes
from .answer_reader import HttpOutcome, Shape, read_answer
from .measure import compact_text


class ServerClient:
    """Requests to one toolhost server with one API key."""

    def __init__(self, server_url: str, api_key: str, timeout_s: float) -> None:
        parts = urlsplit(server_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"server_url must be an http(s) URL, got {server_url!r}")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self._api_key = api_key
        self._timeout_s = timeout_s
        self._lock = threading.Lock()
        self._in_flight: Set[http.client.HTTPConnection] = set()
        self._aborted = False

    def abort(self) -> None:
        """Closes every request in flight and refuses new ones (they answer ``unreachable``)."""
        with self._lock:
            self._aborted = True
            connections = list(self._in_flight)
        for connection in connections:
            try:
                if connection.sock is not None:
                    connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def resume(self) -> None:
        """Allows requests again after ``abort`` (used while draining)."""
        with self._lock:
            self._aborted = False

    def request(
        self, method: str, path: str, body_text: Optional[str], shape: Shape, extra_wait_s: float = 0.0
    ) -> HttpOutcome:
        """Sends one request; answers its outcome (never raises for network or answer problems)."""
        factory = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        connection = factory(self._host, self._port, timeout=self._timeout_s + extra_wait_s)
        with self._lock:
            if self._aborted:
                return HttpOutcome("unreachable", message="aborted")
            self._in_flight.add(connection)
        headers = {"authorization": f"Bearer {self._api_key}", "accept": "application/json"}
        payload = None
        if body_text is not None:
            payload = body_text.encode("utf-8")
            headers["content-type"] = "application/json"
        try:
            connection.request(method, self._prefix + path, body=payload, headers=headers)
            response = connection.getresponse()
            raw = response.read()
            return read_answer(response.status, raw, shape)
        except (OSError, http.client.HTTPException, ValueError) as error:
            return HttpOutcome("unreachable", message=f"{type(error).__name__}: {error}")
        finally:
            with self._lock:
                self._in_flight.discard(connection)
            connection.close()

    # --- routes -------------------------------------------------------------------------------

    def connect(self, executor_id: str, binding_ids: List[str], tool_names: List[str]) -> HttpOutcome:
        """POST /v1/executors/connect."""
        body = {"executor_id": executor_id, "binding_ids": binding_ids, "tool_names": tool_names}
        return self.request("POST", "/v1/executors/connect", compact_text(body), shapes.CONNECT_ANSWER)

    def heartbeat(self, executor_id: str, connection_id: str) -> HttpOutcome:
        """POST /v1/executors/{executor_id}/heartbeat."""
        path = f"/v1/executors/{quote(executor_id, safe='')}/heartbeat"
        return self.request("POST", path, compact_text({"connection_id": connection_id}), shapes.HEARTBEAT_ANSWER)

    def pending(self, executor_id: str, connection_id: str, limit: int, wait_ms: int, claim: int) -> HttpOutcome:
        """GET /v1/executors/{executor_id}/pending (long-poll; ``claim`` > 0 asks for batched claims)."""
        query: Dict[str, Any] = {"connection_id": connection_id, "limit": limit, "wait_ms": wait_ms}
        if claim > 0:
            query["claim"] = claim
        path = f"/v1/executors/{quote(executor_id, safe='')}/pending?{urlencode(query)}"
        return self.request("GET", path, None, shapes.PENDING_ANSWER, extra_wait_s=wait_ms / 1000)

    def claim(self, executor_id: str, connection_id: str, run_id: str, call_id: str) -> HttpOutcome:
        """POST /v1/runs/{run_id}/tool-calls/{call_id}/claim."""
        path = f"/v1/runs/{quote(run_id, safe='')}/tool-calls/{quote(call_id, safe='')}/claim"
        body = {"executor_id": executor_id, "connection_id": connection_id}
        return self.request("POST", path, compact_text(body), shapes.CLAIM_ANSWER)

    def receipt(self, run_id: str, call_id: str, body_text: str) -> HttpOutcome:
        """POST /v1/runs/{run_id}/tool-calls/{call_id}/receipts with the journaled body text, as is."""
        path = f"/v1/runs/{quote(run_id, safe='')}/tool-calls/{quote(call_id, safe='')}/receipts"
        return self.request("POST", path, body_text, shapes.RECEIPT_ANSWER)

    def receipts(self, executor_id: str, items: List[Dict[str, str]]) -> HttpOutcome:
        """POST /v1/executors/{executor_id}/receipts: ``items`` of ``run_id``, ``call_id``, ``body_text``."""
        # Each receipt goes in as its journaled text, byte for byte (the server stores the item's text).
        parts = [
            '{"run_id":%s,"call_id":%s,"receipt":%s}' % (json.dumps(i["run_id"]), json.dumps(i["call_id"]), i["body_text"])
            for i in items
        ]
        body_text = '{"receipts":[' + ",".join(parts) + "]}"
        path = f"/v1/executors/{quote(executor_id, safe='')}/receipts"
        return self.request("POST", path, body_text, shapes.RECEIPT_BATCH_ANSWER)

    def report(self, executor_id: str, connection_id: str, calls: List[Dict[str, Any]]) -> HttpOutcome:
        """POST /v1/executors/{executor_id}/calls/report."""
        path = f"/v1/executors/{quote(executor_id, safe='')}/calls/report"
        body = {"connection_id": connection_id, "calls": calls}
        return self.request("POST", path, compact_text(body), shapes.REPORT_ANSWER)

    def disconnect(self, executor_id: str, connection_id: str) -> HttpOutcome:
        """POST /v1/executors/{executor_id}/disconnect."""
        path = f"/v1/executors/{quote(executor_id, safe='')}/disconnect"
        return self.request("POST", path, compact_text({"connection_id": connection_id}), shapes.DISCONNECT_ANSWER)
