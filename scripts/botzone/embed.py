#!/usr/bin/env python3
"""Embeds the static bot executable in the two Botzone entries (used by scripts/package-botzone).

    embed.py BINARY OUT_DIR VERSION [BAKED_ARG...]

writes OUT_DIR/nogo-botzone-python.zip (wrapper.py as __main__.py, the executable as the
deflated member `nogo`) and OUT_DIR/nogo-botzone.cpp (wrapper.cpp with the executable
deflated and base64-encoded in a string literal).
"""

import base64
import json
import os
import sys
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
LINE = 4000  # characters of base64 per source line


def fill(template, values):
    text = open(os.path.join(HERE, template)).read()
    for key, value in values.items():
        marker = "@" + key + "@"
        if marker not in text:
            sys.exit("embed.py: %s lacks %s" % (template, marker))
        text = text.replace(marker, value)
    return text


def cpp_string(text):
    return json.dumps(text)  # the arguments are ASCII: JSON escapes are valid C++ escapes


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    binary_path, out, version = sys.argv[1:4]
    baked = sys.argv[4:]
    binary = open(binary_path, "rb").read()
    crc = zlib.crc32(binary) & 0xFFFFFFFF
    common = {"VERSION": version, "SIZE": str(len(binary)), "CRC32": "0x%08x" % crc}

    main_py = fill("wrapper.py", dict(common, ARGS=repr(baked)))
    zip_path = os.path.join(out, "nogo-botzone-python.zip")
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("__main__.py", main_py)
        z.writestr("nogo", binary)

    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate, as wrapper.cpp inflates
    deflated = compressor.compress(binary) + compressor.flush()
    packed = base64.b64encode(deflated).decode("ascii")
    lines = ('"%s"' % packed[i : i + LINE] for i in range(0, len(packed), LINE))
    cpp = fill(
        "wrapper.cpp",
        dict(
            common,
            ARGS="".join(cpp_string(a) + ", " for a in baked),
            PACKED_CRC32="0x%08x" % (zlib.crc32(deflated) & 0xFFFFFFFF),
            PAYLOAD="\n".join(lines),
        ),
    )
    with open(os.path.join(out, "nogo-botzone.cpp"), "w") as f:
        f.write(cpp)


if __name__ == "__main__":
    main()
