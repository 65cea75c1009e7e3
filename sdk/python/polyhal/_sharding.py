"""Global arrays and their per-device pieces under an HLO sharding, in numpy.

The same rules as core/hlo/sharded_array.h, which the C++ side (`polyhal run
--devices N`) uses; the bindings reach the public C API only, which does not
expose shardings, so the package reads them from the program's HLO text and
splits and assembles here. tests/test_multi_device.py checks both agree on
the sample models.

A tiled sharding cuts dimension i of the global array into tiles[i] pieces
of ceil(global / tiles) elements, the last ones zero-padded; the device at
position (t0, t1, ..., r...) of the tile assignment holds tile (t0, t1, ...),
the trailing replication and subgroup dimensions giving copies of it. A
replicated, manual or maximal sharding gives every device the whole array.
"""
import dataclasses
import re

import numpy as np

from ._errors import Error


@dataclasses.dataclass(frozen=True)
class Sharding:
    """One array's sharding as HLO text writes it (`text`, without braces)."""

    text: str
    kind: str  # tiled, replicated, manual, maximal, unknown, unreduced
    tiles: tuple = ()  # the tile assignment's dimensions (tiled)
    devices: tuple = ()  # the tile assignment's devices, row-major (tiled)
    data_rank: int = 0  # the dimensions of the array it splits (tiled)
    device: int = -1  # maximal

    def tile_counts(self, rank):
        if self.kind != "tiled":
            return (1,) * rank
        return self.tiles[:rank]

    def tile_of_device(self, device, rank):
        """The tile `device` holds; None when it holds none."""
        if self.kind == "maximal" and device != self.device:
            return None
        if self.kind != "tiled":
            return (0,) * rank
        if device not in self.devices:
            return None
        position = np.unravel_index(self.devices.index(device), self.tiles)
        return tuple(int(index) for index in position[:rank])


def _matching_brace(text, open_index):
    depth = 0
    for index in range(open_index, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    raise Error("INVALID_ARGUMENT", f"unbalanced braces in {text!r}")


def _top_level_groups(text):
    """The contents of each top-level {...} of `text`."""
    groups = []
    index = text.find("{")
    while index >= 0:
        end = _matching_brace(text, index)
        groups.append(text[index + 1:end])
        index = text.find("{", end + 1)
    return groups


def _integers(text):
    return tuple(int(value) for value in text.split(",") if value.strip())


def _without_metadata(text):
    start = text.find("metadata={")
    if start < 0:
        return text
    end = _matching_brace(text, start + len("metadata="))
    return text[:start] + text[end + 1:]


def _parse_one(text):
    text = _without_metadata(text).strip()
    if text in ("replicated", "manual", "unknown", "unreduced"):
        return Sharding(text, text)
    maximal = re.fullmatch(r"maximal device=(\d+)", text)
    if maximal:
        return Sharding(text, "maximal", device=int(maximal.group(1)))
    tiled = re.fullmatch(
        r"devices=\[([\d,]+)\]\s*(?:<=\[([\d,]+)\](?:T\(([\d,]+)\))?|"
        r"([\d,\s]+?))\s*(last_tile_dim_replicate)?\s*"
        r"(?:last_tile_dims=\{([^}]*)\})?", text)
    if not tiled:
        raise Error("UNIMPLEMENTED", f"the sharding {{{text}}} is not one "
                    "the package splits arrays by")
    tiles = _integers(tiled.group(1))
    count = int(np.prod(tiles))
    if tiled.group(2):
        iota = np.arange(count).reshape(_integers(tiled.group(2)))
        if tiled.group(3):
            iota = iota.transpose(_integers(tiled.group(3)))
        devices = tuple(int(device) for device in iota.reshape(-1))
    else:
        devices = _integers(tiled.group(4))
    if len(devices) != count:
        raise Error("INVALID_ARGUMENT", f"the sharding {{{text}}} names "
                    f"{len(devices)} devices for {count} tiles")
    subgroups = [name for name in (tiled.group(6) or "").split(",")
                 if name.strip()]
    data_rank = len(tiles) - len(subgroups) - (1 if tiled.group(5) else 0)
    return Sharding(text, "tiled", tiles, devices, data_rank)


def parse(text):
    """The sharding of HLO text `{...}`'s contents: one Sharding, or a list
    of them for a tuple sharding."""
    if text.lstrip().startswith("{"):
        return [_parse_one(element) for element in _top_level_groups(text)]
    return _parse_one(text)


def _check_splittable(sharding, shape):
    if isinstance(sharding, list):
        raise Error("INVALID_ARGUMENT", "a tuple sharding is applied per "
                    "array: take each array with its own sharding")
    if sharding.kind == "unknown":
        raise Error("INVALID_ARGUMENT",
                    f"the sharding {{{sharding.text}}} of {list(shape)} does "
                    "not say how the array lies over the devices")
    if sharding.kind == "unreduced":
        raise Error("UNIMPLEMENTED",
                    f"the sharding {{{sharding.text}}} of {list(shape)} "
                    "leaves partial values to sum; only whole values are "
                    "split and assembled")
    if sharding.kind == "tiled" and sharding.data_rank != len(shape):
        raise Error("INVALID_ARGUMENT",
                    f"the sharding {{{sharding.text}}} splits "
                    f"{sharding.data_rank} dimensions, the array "
                    f"{list(shape)} has {len(shape)}")


def _piece_shape(global_shape, counts):
    return tuple(-(-size // count) for size, count in zip(global_shape, counts))


def _block(tile, piece, global_shape):
    """The slices of the global array that a tile covers, and of the piece
    that lies inside the global array."""
    inside, within = [], []
    for index, size, extent in zip(tile, piece, global_shape):
        origin = index * size
        length = min(max(extent - origin, 0), size)
        inside.append(slice(origin, origin + length))
        within.append(slice(0, length))
    return tuple(inside), tuple(within)


def global_shape_of(local_shape, sharding):
    """The global array's shape whose pieces have `local_shape` (padded to a
    multiple of the tile counts)."""
    _check_splittable(sharding, local_shape)
    counts = sharding.tile_counts(len(local_shape))
    return tuple(size * count for size, count in zip(local_shape, counts))


def piece_shape_of(global_shape, sharding):
    """The shape of each device's piece of an array of `global_shape`."""
    _check_splittable(sharding, global_shape)
    return _piece_shape(global_shape, sharding.tile_counts(len(global_shape)))


def shard_of(array, sharding, device):
    """The piece of the global `array` that `device` holds, zero-padded past
    the end of a dimension that does not divide evenly."""
    piece = piece_shape_of(array.shape, sharding)
    tile = sharding.tile_of_device(device, array.ndim)
    if tile is None:
        raise Error("INVALID_ARGUMENT",
                    f"device {device} holds no piece of {list(array.shape)} "
                    f"under the sharding {{{sharding.text}}}")
    result = np.zeros(piece, dtype=array.dtype)
    inside, within = _block(tile, piece, array.shape)
    result[within] = array[inside]
    return result


def assemble(pieces, sharding, global_shape):
    """The array of `global_shape` from every device's piece, pieces[d]
    being device d's; a tile held by several devices is taken from the
    first of them."""
    piece = piece_shape_of(global_shape, sharding)
    counts = sharding.tile_counts(len(global_shape))
    result = None
    assembled = set()
    for device, value in enumerate(pieces):
        tile = sharding.tile_of_device(device, len(global_shape))
        if tile is None or tile in assembled:
            continue
        assembled.add(tile)
        if tuple(value.shape) != piece:
            raise Error("INVALID_ARGUMENT",
                        f"device {device} holds {list(value.shape)} where the "
                        f"sharding {{{sharding.text}}} of {list(global_shape)} "
                        f"gives {list(piece)}")
        if result is None:
            result = np.zeros(global_shape, dtype=value.dtype)
        inside, within = _block(tile, piece, global_shape)
        result[inside] = value[within]
    if len(assembled) != int(np.prod(counts)):
        raise Error("INVALID_ARGUMENT",
                    f"the {len(pieces)} pieces given hold {len(assembled)} of "
                    f"the {int(np.prod(counts))} tiles of {list(global_shape)} "
                    f"under the sharding {{{sharding.text}}}")
    return result


@dataclasses.dataclass(frozen=True)
class EntryShardings:
    """How a program's per-process arrays map to global ones: its grid and
    the shardings of its entry parameters and of its root's leaves (None
    where there is none)."""

    replicas: int
    partitions: int
    parameters: list
    results: list


def _attribute(line, name):
    """The contents of `name={...}` on `line`, or None."""
    start = line.find(f" {name}={{")
    if start < 0:
        return None
    open_index = start + len(name) + 2
    return line[open_index + 1:_matching_brace(line, open_index)]


def _entry_lines(text):
    """The instructions of the ENTRY computation, one a line. Its body opens
    at the first brace after a space: a layout's brace follows a `]`."""
    entry = re.search(r"^ENTRY\b", text, re.MULTILINE)
    body = re.compile(r"\s\{").search(text, entry.end()) if entry else None
    if body is None:
        raise Error("INVALID_ARGUMENT", "the module has no ENTRY computation")
    open_index = body.end() - 1
    return text[open_index + 1:_matching_brace(text, open_index)].splitlines()


def entry_shardings(hlo_text, result_count):
    """The grid and entry shardings of an HLO text module whose root has
    `result_count` leaves."""
    module_line = re.search(r"^HloModule\b.*$", hlo_text, re.MULTILINE)
    header = module_line.group(0) if module_line else ""
    replicas = re.search(r"\breplica_count=(\d+)", header)
    partitions = re.search(r"\bnum_partitions=(\d+)", header)
    parameters = {}
    root = None
    for line in _entry_lines(hlo_text):
        number = re.search(r"\sparameter\((\d+)\)", line)
        sharding = _attribute(line, "sharding")
        if number:
            parameters[int(number.group(1))] = (
                None if sharding is None else parse(sharding))
        if line.lstrip().startswith("ROOT "):
            root = None if sharding is None else parse(sharding)
    if isinstance(root, list) and len(root) != result_count:
        raise Error("INVALID_ARGUMENT",
                    f"the root's sharding names {len(root)} arrays for "
                    f"{result_count} results")
    results = root if isinstance(root, list) else [root] * result_count
    return EntryShardings(
        replicas=int(replicas.group(1)) if replicas else 1,
        partitions=int(partitions.group(1)) if partitions else 1,
        parameters=[parameters.get(i) for i in range(len(parameters))],
        results=results)
