"""Draw the app's icons (server/static/icons/): a blue card with "99" on it, in the sizes a
web app manifest needs — 192 and 512 pixels, each also as a *maskable* icon whose card sits
inside the safe circle a phone's launcher may crop to — and the 180-pixel touch icon.

    python scripts/make_icons.py      # needs Pillow and DejaVu Sans Bold (fonts-dejavu-core)
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "src" / "ono99" / "server" / "static" / "icons"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
BLUE, PAPER, INK = (29, 95, 184), (246, 244, 239), (28, 27, 25)


def icon(size: int, *, maskable: bool) -> Image.Image:
    image = Image.new("RGBA", (size, size), BLUE if maskable else (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    # The card: most of the icon, or inside the maskable safe zone (a circle of 80%).
    width = size * (0.50 if maskable else 0.56)
    height = width * 1.4
    left, top = (size - width) / 2, (size - height) / 2
    box = (left, top, left + width, top + height)
    if not maskable:
        draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size * 0.18, fill=BLUE)
    draw.rounded_rectangle(
        box, radius=width * 0.12, fill=PAPER, outline=INK, width=max(2, size // 96)
    )
    font = ImageFont.truetype(FONT, int(width * 0.5))
    draw.text((size / 2, size / 2), "99", font=font, fill=BLUE, anchor="mm")
    return image


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
        icon(size, maskable=True).save(OUT / f"maskable-{size}.png", optimize=True)
    icon(180, maskable=True).save(OUT / "apple-touch-icon.png", optimize=True)
    for path in sorted(OUT.glob("*.png")):
        print(path, path.stat().st_size)


if __name__ == "__main__":
    main()
