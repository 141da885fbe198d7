# SPDX-License-Identifier: MIT
"""xwd.py — reads the XWD files that xwd(1) writes (ZPixmap, 24 or 32 bits per
pixel, as Xvfb's TrueColor screens give): enough to ask for one pixel's colour.
The header is 25 big-endian CARD32 fields, then the window name, then ncolors
12-byte XWDColor entries, then the image rows."""
import struct

FIELDS = ("header_size file_version pixmap_format pixmap_depth pixmap_width pixmap_height xoffset "
          "byte_order bitmap_unit bitmap_bit_order bitmap_pad bits_per_pixel bytes_per_line visual_class "
          "red_mask green_mask blue_mask bits_per_rgb colormap_entries ncolors window_width window_height "
          "window_x window_y window_bdrwidth").split()
ZPIXMAP = 2


class Image:
    def __init__(self, data):
        h = dict(zip(FIELDS, struct.unpack(">25I", data[:100])))
        if h["file_version"] != 7 or h["pixmap_format"] != ZPIXMAP or h["bits_per_pixel"] not in (24, 32):
            raise ValueError("unsupported XWD: version %(file_version)d format %(pixmap_format)d "
                             "bpp %(bits_per_pixel)d" % h)
        self.h = h
        self.width, self.height = h["pixmap_width"], h["pixmap_height"]
        self.offset = h["header_size"] + 12 * h["ncolors"]
        self.data = data
        self.order = "little" if h["byte_order"] == 0 else "big"  # LSBFirst = 0

    def pixel(self, x, y):
        bpp = self.h["bits_per_pixel"] // 8
        at = self.offset + y * self.h["bytes_per_line"] + x * bpp
        return int.from_bytes(self.data[at:at + bpp], self.order)

    def rgb(self, x, y):
        """(r, g, b), each 0..255, through the visual's masks."""
        v = self.pixel(x, y)
        out = []
        for mask in (self.h["red_mask"], self.h["green_mask"], self.h["blue_mask"]):
            shift = (mask & -mask).bit_length() - 1
            top = mask >> shift
            out.append(((v & mask) >> shift) * 255 // top)
        return tuple(out)


def read(path):
    with open(path, "rb") as f:
        return Image(f.read())


def write_png(image, path):
    """Saves image as an 8-bit RGB PNG, so a person can look at what the test saw."""
    import zlib
    rows = bytearray()
    for y in range(image.height):
        rows.append(0)  # filter type None
        for x in range(image.width):
            rows.extend(image.rgb(x, y))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", image.width, image.height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(bytes(rows))))
        f.write(chunk(b"IEND", b""))
