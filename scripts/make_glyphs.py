"""Write src/ono99/env/glyphs.py: a 1-bit bitmap of each character the RL text render uses,
cut from DejaVu Sans Mono with Pillow (a developer's tool; the package reads the table with
NumPy alone). Run with the font's path:

    .venv/bin/python scripts/make_glyphs.py /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

W, H, SIZE = 7, 14, 12
CHARS = "".join(chr(c) for c in range(32, 127)) + "·→−…"


def main() -> None:
    font = ImageFont.truetype(sys.argv[1], SIZE)
    rows = []
    for ch in CHARS:
        img = Image.new("L", (W, H), 0)
        ImageDraw.Draw(img).text((0, 0), ch, font=font, fill=255)
        px = img.load()
        bits = "".join("1" if px[x, y] >= 96 else "0" for y in range(H) for x in range(W))
        rows.append(f"{int(bits, 2):0{(W * H + 3) // 4}x}")
    out = Path(__file__).resolve().parents[1] / "src/ono99/env/glyphs.py"
    body = "\n".join(f'    "{r}",' for r in rows)
    out.write_text(
        '"""Bitmaps of the characters of the RL text render, 7 × 14 pixels each, cut from DejaVu\n'
        "Sans Mono (Bitstream Vera license) by scripts/make_glyphs.py: one hex number per\n"
        '``CHARS`` entry, its bits row by row, top left first."""\n\n'
        f"W, H = {W}, {H}\n"
        f"CHARS = (\n    {CHARS[:48]!r}\n    {CHARS[48:]!r}\n)\n"
        f"BITMAPS = (\n{body}\n)\n",
        encoding="utf-8",
    )
    print(f"wrote {out}: {len(CHARS)} glyphs")


if __name__ == "__main__":
    main()
