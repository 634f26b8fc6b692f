"""A tiny fictional shop ("Northwind Outfitters") served on a loopback address for the demo.

Pages: delivery terms, returns, warranty, technical requirements, a page that moved
permanently, one that is missing (404), and a price list whose content changes each time
`POST /_change` is called (or `?edition=N` is used), so the whole pipeline can be seen offline.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LAYOUT = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} — Northwind Outfitters</title>
<meta name="date" content="2026-11-02"></head><body>
<nav class="menu"><a href="/">Home</a> | <a href="/delivery">Delivery</a> | <a href="/returns">Returns</a> |
<a href="/warranty">Warranty</a> | <a href="/requirements">Requirements</a> | Sign in to see your basket</nav>
<div id="cookie-banner">We use cookies to improve your experience. Accept all cookies?</div>
<main><article><h1>{title}</h1>
{body}
</article></main>
<footer>© 2026 Northwind Outfitters Ltd. All rights reserved. Subscribe to our newsletter.</footer>
</body></html>"""

PAGES: dict[str, tuple[str, str]] = {
    "/delivery": (
        "Delivery terms",
        """<p>We deliver to every address in the United Kingdom and the European Union.</p>
<h2 id="standard">Standard delivery</h2>
<p>Standard delivery takes 3 to 5 working days and costs £4.95. Orders over £50 are delivered free of charge.</p>
<h2 id="express">Express delivery</h2>
<p>Express delivery takes 1 to 2 working days and costs £9.95. Orders placed before 2 pm on a working day are dispatched the same day.</p>
<p>Express delivery is not available for furniture or for parcels heavier than 30 kg.</p>
<h2 id="international">International delivery</h2>
<p>Outside the European Union delivery takes up to 14 working days. Customs duties are not included in the price.</p>""",
    ),
    "/returns": (
        "Returns policy",
        """<h2 id="window">Return window</h2>
<p>You may return any item within 30 days of delivery for a full refund.</p>
<p>Sale items may be returned within 14 days. Personalised items may not be returned unless they are faulty.</p>
<h2 id="how">How to return</h2>
<p>Returns are free for customers in the United Kingdom. Refunds are paid to the original payment method within 10 working days of receiving the item.</p>""",
    ),
    "/warranty": (
        "Warranty",
        """<h2 id="cover">What the warranty covers</h2>
<p>All tents and backpacks carry a 24-month warranty against manufacturing defects.</p>
<p>The warranty does not cover normal wear and tear, misuse or accidental damage.</p>
<h2 id="claims">Making a claim</h2>
<p>A proof of purchase is required for every warranty claim. Repairs are usually completed within 21 days.</p>""",
    ),
    "/requirements": (
        "Technical requirements of the Northwind app",
        """<h2 id="phones">Phones</h2>
<p>The Northwind app requires Android 12 or later, or iOS 16 or later, and 200 MB of free storage.</p>
<h2 id="account">Account</h2>
<p>An account is not required to browse the catalogue. An account is required to place an order.</p>""",
    ),
}

PRICE_EDITIONS = [
    """<h2 id="tents">Tents</h2><p>The Ridge 2 tent costs £149 and weighs 2.1 kg.</p>
<h2 id="bags">Sleeping bags</h2><p>The Summit sleeping bag costs £89 and is rated to minus 5 °C.</p>""",
    """<h2 id="tents">Tents</h2><p>The Ridge 2 tent costs £169 and weighs 2.1 kg.</p>
<h2 id="bags">Sleeping bags</h2><p>The Summit sleeping bag costs £89 and is rated to minus 5 °C.</p>
<h2 id="stoves">Stoves</h2><p>The Flare camping stove costs £39 and boils a litre of water in 4 minutes.</p>""",
]


class DemoShop:
    def __init__(self) -> None:
        self.edition = 0
        self.lock = threading.Lock()

    def render(self, path: str, query: str) -> tuple[int, dict[str, str], bytes]:
        if path == "/old-delivery":
            return 301, {"Location": "/delivery"}, b""
        if path in ("/", "/index.html"):
            links = "".join(f'<li><a href="{p}">{t}</a></li>' for p, (t, _) in PAGES.items())
            return 200, {}, LAYOUT.format(title="Northwind Outfitters", body=f"<ul>{links}</ul>").encode()
        if path == "/prices":
            edition = self.edition
            if query.startswith("edition="):
                edition = int(query.split("=", 1)[1] or 0) % len(PRICE_EDITIONS)
            return 200, {}, LAYOUT.format(title="Price list", body=PRICE_EDITIONS[edition]).encode()
        if path in PAGES:
            title, body = PAGES[path]
            return 200, {}, LAYOUT.format(title=title, body=body).encode()
        return 404, {}, LAYOUT.format(title="Page not found", body="<p>Sorry, this page does not exist.</p>").encode()

    def change(self) -> int:
        with self.lock:
            self.edition = (self.edition + 1) % len(PRICE_EDITIONS)
            return self.edition


def make_handler(shop: DemoShop) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "NorthwindDemo/1.0"

        def do_GET(self) -> None:  # noqa: N802 (http.server naming)
            path, _, query = self.path.partition("?")
            status, headers, body = shop.render(path, query)
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:  # noqa: N802
            if self.path != "/_change":
                self.send_error(404)
                return
            edition = shop.change()
            body = f"price list is now edition {edition}\n".encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet
            return

    return Handler


def serve(host: str, port: int) -> tuple[ThreadingHTTPServer, DemoShop]:
    """Start the demo shop in a daemon thread; returns the server and its state."""
    shop = DemoShop()
    server = ThreadingHTTPServer((host, port), make_handler(shop))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True, name="demo-shop").start()
    return server, shop
