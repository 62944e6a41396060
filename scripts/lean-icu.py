#!/usr/bin/env python3
"""Writes Sources/LeanICUData/icudt76l-lean.dat: the ICU data in the toolchain's static Foundation
(lib_FoundationICU.a, the symbol icudt76_dat, 34 MB) with only what a command-line tool in English needs:
the root and English locales, time zones, normalization, converter aliases, break rules (no dictionaries),
root collation. Left out: every other locale (dates, numbers, names, collation in other languages),
transliteration, legacy code page converters (UTF-8/16/32, ASCII and Latin-1 are built in), Unicode names.

  ./scripts/lean-icu.py [--toolchain-lib DIR] [--output FILE]

Run it again after a toolchain upgrade: the release link then uses its data instead of the toolchain's.
"""
import argparse, os, re, shutil, struct, subprocess, sys, tempfile

LOCALE = re.compile(r"^(root|en|en_US|en_US_POSIX|en_001|en_150|en_GB|pool)\.res$")
TABLES = ("supplementalData", "supplementalMetadata", "likelySubtags", "zoneinfo64", "metaZones", "timezoneTypes",
          "windowsZones", "tzdbNames", "numberingSystems", "keyTypeData", "plurals", "pluralRanges", "dayPeriods",
          "icuver", "icustd", "genderList", "grammaticalFeatures", "units", "currencyNumericCodes", "langInfo")


def keep(name):
  parts = name.split("/")[1:]
  file = parts[-1]
  if len(parts) == 1:
    if file.endswith(".cnv") or file.endswith(".spp") or file == "unames.icu":
      return False
    if file.endswith(".res"):
      return file.startswith(TABLES) or bool(LOCALE.match(file))
    return True
  tree = parts[0]
  if tree == "translit":
    return False
  if tree == "brkitr":
    return file.endswith(".brk") or file.endswith(".nrm") or bool(LOCALE.match(file))
  if tree == "coll":
    return file == "ucadata.icu" or bool(LOCALE.match(file))
  return not file.endswith(".res") or bool(LOCALE.match(file))


def filtered(data):
  """The common data package ("CmnD": header, table of contents, names, items) with the kept items."""
  header = struct.unpack_from("<H", data, 0)[0]
  if data[12:16] != b"CmnD":
    sys.exit("lean-icu: not an ICU common data package")
  count = struct.unpack_from("<I", data, header)[0]
  entries = [struct.unpack_from("<II", data, header + 4 + 8 * i) for i in range(count)]
  items = []
  for i, (name_offset, data_offset) in enumerate(entries):
    name = data[header + name_offset:data.index(b"\0", header + name_offset)].decode()
    end = entries[i + 1][1] if i + 1 < count else len(data) - header
    items.append((name, data[header + data_offset:header + end]))
  kept = [(name, item) for name, item in items if keep(name)]  # still sorted: ICU searches by name
  names = b"".join(name.encode() + b"\0" for name, _ in kept)
  start = (4 + 8 * len(kept) + len(names) + 15) // 16 * 16
  toc, body, name_offset, offset = bytearray(struct.pack("<I", len(kept))), bytearray(), 4 + 8 * len(kept), start
  for name, item in kept:
    toc += struct.pack("<II", name_offset, offset)
    padded = item + b"\0" * (-len(item) % 16)
    body += padded
    name_offset += len(name) + 1
    offset += len(padded)
  table = toc + names
  return data[:header] + table + b"\0" * (start - len(table)) + body, len(items), len(kept)


def main():
  swift = shutil.which("swift")
  default_lib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swift))), "lib/swift_static/linux") if swift else ""
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--toolchain-lib", default=default_lib)
  parser.add_argument("--output", default="Sources/LeanICUData/icudt76l-lean.dat")
  args = parser.parse_args()
  archive = os.path.join(args.toolchain_lib, "lib_FoundationICU.a")
  with tempfile.TemporaryDirectory() as scratch:
    subprocess.run(["ar", "x", archive, "icu_packaged_data.cpp.o"], cwd=scratch, check=True)
    symbols = subprocess.run(["nm", "icu_packaged_data.cpp.o"], cwd=scratch, check=True, capture_output=True, text=True).stdout
    if "icudt76_dat" not in symbols:
      sys.exit("lean-icu: the toolchain's ICU is not version 76: change the symbol in Sources/LeanICUData/icudata.S")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.rodata", "icu_packaged_data.cpp.o", "icudt.dat"],
                   cwd=scratch, check=True)
    with open(os.path.join(scratch, "icudt.dat"), "rb") as file:
      data = file.read()
  lean, total, kept = filtered(data)
  with open(args.output, "wb") as file:
    file.write(lean)
  print(f"{args.output}: {kept} of {total} items, {len(lean) / 1e6:.1f} of {len(data) / 1e6:.1f} MB")


if __name__ == "__main__":
  main()
