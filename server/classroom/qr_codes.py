"""QR codes for the students' join cards: a phone or tablet's camera opens the link.

Made with segno (pure Python, no image library): one SVG per link, as a
``data:`` address that the teacher's page puts in an ``<img>`` (the pages'
Content-Security-Policy allows ``data:`` images), printed as sharp as the
printer goes.
"""

from __future__ import annotations

import segno

QR_ERROR_LEVEL = "m"
"""Medium error correction (15 %): a card folded or smudged in a pocket still scans."""


def qr_data_uri(link: str) -> str:
    """``link`` as a QR code: an SVG ``data:`` address, black on white with the
    quiet zone the standard asks (4 modules), scaled by the page.

    >>> qr_data_uri("http://192.0.2.2:8765/#/account/bp_x?name=Ann").startswith("data:image/svg+xml")
    True
    """
    code = segno.make_qr(link, error=QR_ERROR_LEVEL)
    return code.svg_data_uri(scale=4, border=4, dark="#000", light="#fff", omitsize=True)
