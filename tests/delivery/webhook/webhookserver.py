#!/usr/bin/env python3
"""The endpoint tst_webhookdelivery delivers to: an HTTP/1.1 keep-alive server on a free
loopback port, written independently of delayq (Python's http.server, hmac and base64).

Prints {"port": N} on stdout once listening, and appends to LOG one JSON line per request it
received, before it answers: method, path, headers (names in lower case), body (base64), the client's port (one
per TCP connection), and its own verdict on the Standard Webhooks signature ("valid",
"invalid", "absent") with the secret in WEBHOOK_SECRET (whsec_<base64> or raw).

What it answers is chosen by the path:
  /status/CODE[?body=TEXT&retry_after=VALUE]  that status, body and Retry-After header
  /sleep/MS                                   waits MS ms, then 204
  /close                                      a 200 announcing 100 bytes, sends 10, closes
Anything else is 204. It exits when its stdin closes, so a test that dies leaves none behind.

Usage: webhookserver.py LOG [--tls CERT KEY]
"""
import base64
import hashlib
import hmac
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

OUT = threading.Lock()
LOG = open(sys.argv[1], "a", encoding="utf-8")


def emit(record, to=LOG):
    with OUT:
        to.write(json.dumps(record) + "\n")
        to.flush()


def secret_key():
    secret = os.environ.get("WEBHOOK_SECRET", "")
    if secret.startswith("whsec_"):
        return base64.b64decode(secret[len("whsec_"):], validate=True)
    return secret.encode()


KEY = secret_key()


def verdict(headers, body):
    signature = headers.get("webhook-signature")
    if signature is None:
        return "absent"
    if not KEY:
        return "no secret"
    signed = "{}.{}.".format(headers.get("webhook-id", ""),
                             headers.get("webhook-timestamp", "")).encode() + body
    expected = base64.b64encode(hmac.new(KEY, signed, hashlib.sha256).digest()).decode()
    for entry in signature.split(" "):
        version, _, value = entry.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return "valid"
    return "invalid"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def handle_any(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        headers = {name.lower(): value for name, value in self.headers.items()}
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        emit({"method": self.command, "path": url.path, "headers": headers,
              "body": base64.b64encode(body).decode(), "port": self.client_address[1],
              "signature": verdict(headers, body), "time": time.time()})
        parts = url.path.strip("/").split("/")
        if parts[0] == "status":
            self.answer(int(parts[1]), query.get("body", "").encode("utf-8", "surrogateescape"),
                        query.get("retry_after"))
        elif parts[0] == "sleep":
            time.sleep(int(parts[1]) / 1000)
            self.answer(204, b"")
        elif parts[0] == "close":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.close_connection = True
        else:
            self.answer(204, b"")

    def answer(self, status, body, retry_after=None):
        self.send_response(status)
        if retry_after is not None:
            self.send_header("Retry-After", retry_after)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_PUT = do_PATCH = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that timed out and left: nothing to report


def main():
    server = Server(("127.0.0.1", 0), Handler)
    if len(sys.argv) == 5 and sys.argv[2] == "--tls":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[3], sys.argv[4])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    emit({"port": server.server_address[1]}, sys.stdout)
    sys.stdin.read()  # until the test closes it, or dies
    os._exit(0)


if __name__ == "__main__":
    main()
