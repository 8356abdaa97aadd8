"""The compiled half of :mod:`boardroom.shared.engine.native`: numba functions on uint64 words.

Everything here runs as machine code (``@njit``), with fixed-width integer
arithmetic: a ``uint64`` mixed with a Python ``int`` would become a float, so every
constant is a numpy scalar of the right width. :mod:`boardroom.shared.engine.native` says
what each function mirrors in the pure search; the Python side (the table's
memory, the slices, the warm-up) is there too.

Every function is compiled with ``_nrt=False``: without numba's runtime, array
arguments are not reference-counted at each call. The node function calls
itself millions of times a second with four arrays, and those atomic counts
were half its time (docs/benchmarks.md, "Against bitbully"). The price is that
nothing here may allocate an array; nothing does (the opening database is read
in place from ``consts``).

Importing this module imports numba, which reads ``NUMBA_CACHE_DIR`` at once: the
module sets it first, to ``~/.cache/boardroom/numba`` (``$XDG_CACHE_HOME``
respected) when unset, since the package directory may be read-only.
"""

from __future__ import annotations

import os
from pathlib import Path


def _default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return str(Path(base) / "boardroom" / "numba")


# Read by numba when it is imported, so set before the import below.
os.environ.setdefault("NUMBA_CACHE_DIR", _default_cache_dir())

import numba  # noqa: E402
import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from boardroom.shared.engine.kernel import MIRROR_MAX_STONES  # noqa: E402
from boardroom.shared.engine.negamax import CHECK_EVERY  # noqa: E402
from boardroom.shared.engine.scores import INFINITY, SCORE_UNIT  # noqa: E402

TABLE_BITS = 22
"""4M slots of 24 bytes: about 100 MB when full, touched only as used (a fresh
process maps zero pages). Smaller tables cost the long solves nodes; the pure
dict holds up to 2M entries in about 400 MB."""
PROBES = 8
"""Slots a key may use (linear probing). Within a search nothing is evicted until
a key finds all of its slots taken by others, so small searches behave exactly as
with a dict; after that the key's first slot is overwritten."""
# -- layouts ----------------------------------------------------------------------
#
# Few arguments, because every array argument of a compiled call is passed as
# seven machine words, and the node calls itself millions of times a second.
# ``consts`` (uint64): a game's constants; ``table`` (uint64, slots x 3): key
# words and one word of gen | bounds | move; ``scratch`` (uint64): per ply, the
# children and their order; ``state`` (int64): the search's counters.

C_WIDTH, C_HEIGHT, C_K, C_STRIDE, C_GRAVITY, C_CELLS, C_HALF, C_KEY, C_C4 = range(9)
C_BOARD, C_BOTTOM, C_ORDER_LEN, C_SYMMETRIES = 9, 10, 11, 12
C_DB_COUNT, C_DB_KEYS, C_DB_SCORES = 13, 14, 15
"""The opening database (Connect Four only; count 0 when absent), appended to
``consts`` after the symmetries: its int32 keys two to a word (key ``i`` in word
``C_DB_KEYS + i // 2``, low half for even ``i``), then its int8 stone scores eight
to a word (score ``i`` in byte ``i % 8`` of word ``C_DB_SCORES + i // 8``).

Why in ``consts`` rather than as two more array arguments: an array argument
costs every recursive call seven machine words, and the node calls itself
millions of times a second, for a table asked at one ply only; ``consts`` is
passed anyway. Packed this way it takes the same 21 MB as the arrays."""
C_ORDER = 16
"""Where the static order starts (up to 64 masks), then the symmetries' bit maps."""
C_PERMS = C_ORDER + 64
DB_PLIES = 12
"""Stones of every position in the database
(:data:`boardroom.shared.engine.opening_database.PLIES`)."""
DB_MISSING = 127
"""What :func:`_database_score` returns for a position the database lacks."""
KEY_MIRROR, KEY_SYMMETRIC, KEY_PLAIN = 0, 1, 2
"""How positions share table entries, as :func:`boardroom.shared.engine.kernel._build_kernel`
chooses: Connect Four's mirror in the opening, the square's symmetries on boards
of up to :data:`~boardroom.shared.engine.kernel.SYMMETRY_MAX_CELLS` cells, or none."""

S_NODES, S_CAP, S_STOP, S_GEN = range(4)
"""Nodes so far, the cap, the stop flag, the table generation the search owns."""

SCRATCH_ROW = 3 * 64
"""Per ply: 64 child moves, their 64 threat sets, their 64 sort weights."""
SCRATCH_RUNS = 66
"""The row of :func:`_winning_cells`' run lengths (rows 0-65 are plies)."""

_U64 = numba.uint64
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_BYTE = np.uint64(0xFF)
_UNIT = np.int64(SCORE_UNIT)
_INF = np.int64(INFINITY)
_STORED_INF = np.int64(100)
"""Table bounds are stored as stone scores in a byte (every bound is a whole number
of stones, or infinite); this stands for infinity."""
_TABLE_MOVE_ORDER = np.uint64(1 << 20)
_HASH_A = np.uint64(0x9E3779B97F4A7C15)
_HASH_B = np.uint64(0xC2B2AE3D27D4EB4F)
_HASH_SHIFT = np.uint64(64 - TABLE_BITS)
_SLOT_MASK = np.int64((1 << TABLE_BITS) - 1)


# -- bit tricks --------------------------------------------------------------------


@njit(cache=True, inline="always", _nrt=False)
def _popcount(x: np.uint64) -> int:  # pragma: no cover - compiled
    # SWAR count; LLVM turns it into one popcnt instruction.
    x = x - ((x >> _U64(1)) & _U64(0x5555555555555555))
    x = (x & _U64(0x3333333333333333)) + ((x >> _U64(2)) & _U64(0x3333333333333333))
    x = (x + (x >> _U64(4))) & _U64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * _U64(0x0101010101010101)) >> _U64(56))


@njit(cache=True, inline="always", _nrt=False)
def _shl(x: np.uint64, n: np.int64) -> int:  # pragma: no cover - compiled
    # Shifts of 64 or more are undefined in LLVM; on the board they give nothing.
    return x << _U64(n) if n < 64 else _ZERO


@njit(cache=True, inline="always", _nrt=False)
def _shr(x: np.uint64, n: np.int64) -> int:  # pragma: no cover - compiled
    return x >> _U64(n) if n < 64 else _ZERO


@njit(cache=True, inline="always", _nrt=False)
def _winning_cells_c4(s: np.uint64, empty: np.uint64) -> int:  # pragma: no cover
    """Connect Four (stride 7, k 4, gravity): :func:`_winning_cells` with constant shifts."""
    r = (s << _U64(1)) & (s << _U64(2)) & (s << _U64(3))
    for d in (7, 8, 6):
        dd = _U64(d)
        p = (s << dd) & (s << (dd + dd))
        r |= p & (s << (dd * _U64(3)))
        r |= p & (s >> dd)
        p = (s >> dd) & (s >> (dd + dd))
        r |= p & (s << dd)
        r |= p & (s >> (dd * _U64(3)))
    return r & empty


@njit(cache=True, _nrt=False)
def _winning_cells(
    s: np.uint64, empty: np.uint64, consts: np.ndarray, scratch: np.ndarray
) -> int:  # pragma: no cover - compiled
    """``kernel.winning_cells(s, empty)``: the cells of ``empty`` where one more stone
    of ``s`` makes k in a row."""
    if consts[C_C4]:
        return _winning_cells_c4(s, empty)
    k = np.int64(consts[C_K])
    stride = np.int64(consts[C_STRIDE])
    runs = scratch[SCRATCH_RUNS]
    r = _ZERO
    for direction in range(4):
        d = (1, stride, stride + 1, stride - 1)[direction]
        if consts[C_GRAVITY] and d == 1:
            # Cells above an empty cell are empty: a column is completed from above.
            t = _ALL
            for i in range(1, k):
                t &= _shl(s, i * d)
            r |= t
            continue
        # runs[a]: a own stones in a row behind the cell; runs[k + b]: b ahead.
        runs[0] = _ALL
        runs[k] = _ALL
        back = _ALL
        fore = _ALL
        for i in range(1, k):
            back &= _shl(s, i * d)
            fore &= _shr(s, i * d)
            runs[i] = back
            runs[k + i] = fore
        for a in range(k):
            r |= runs[a] & runs[k + k - 1 - a]
    return r & empty


@njit(cache=True, inline="always", _nrt=False)
def _safe_moves(
    occupied: np.uint64, opp_wins: np.uint64, consts: np.ndarray
) -> int:  # pragma: no cover - compiled
    """``kernel.safe_moves``: the moves that leave the opponent no win at once."""
    if consts[C_GRAVITY]:
        playable = (occupied + consts[C_BOTTOM]) & consts[C_BOARD]
    else:
        playable = consts[C_BOARD] & ~occupied
    forced = playable & opp_wins
    if forced & (forced - _ONE):
        return _ZERO
    moves = forced if forced else playable
    if consts[C_GRAVITY]:
        moves &= ~(opp_wins >> _ONE)
    return moves


@njit(cache=True, _nrt=False)
def _image(x: np.uint64, consts: np.ndarray, symmetry: np.int64) -> int:  # pragma: no cover
    """``x`` with every bit moved by one symmetry of the board."""
    base = C_PERMS + 64 * symmetry
    out = _ZERO
    while x:
        low = x & (~x + _ONE)
        out |= _ONE << consts[base + _popcount(low - _ONE)]
        x ^= low
    return out


@njit(cache=True, _nrt=False)
def _key(
    cur: np.uint64, opp: np.uint64, consts: np.ndarray
) -> tuple[np.uint64, np.uint64]:  # pragma: no cover - compiled
    """``kernel.key(cur, opp)`` as two words: positions share a key exactly when
    they share one in the pure table."""
    occupied = cur | opp
    mode = consts[C_KEY]
    if mode == KEY_MIRROR:
        key = cur + occupied
        if _popcount(occupied) > MIRROR_MAX_STONES:
            return key, _ZERO
        stride = consts[C_STRIDE]
        group = (_ONE << stride) - _ONE
        last = np.int64(consts[C_WIDTH]) - 1
        mirrored = _ZERO
        for c in range(consts[C_WIDTH]):
            mirrored |= ((key >> _U64(c * stride)) & group) << _U64((last - c) * stride)
        return (key if key <= mirrored else mirrored), _ZERO
    if mode == KEY_PLAIN:
        return cur, opp
    # The least image, ordered as the pure key orders its packed int: opp, then cur.
    best_cur, best_opp = cur, opp
    for s in range(1, consts[C_SYMMETRIES]):
        image_cur = _image(cur, consts, s)
        image_opp = _image(opp, consts, s)
        if image_opp < best_opp or (image_opp == best_opp and image_cur < best_cur):
            best_cur, best_opp = image_cur, image_opp
    return best_cur, best_opp


# -- the opening database ------------------------------------------------------------


@njit(cache=True, inline="always", _nrt=False)
def _huffman(cur: np.uint64, opp: np.uint64, mirrored: bool) -> int:  # pragma: no cover
    """``opening_database.huffman_key(cur, opp)`` (of the mirror image if ``mirrored``),
    as a signed 32-bit value in an int64. ``cur`` must be X with 12 stones down."""
    code = np.int64(0)
    for i in range(7):
        column = 6 - i if mirrored else i
        for row in range(6):
            bit = _ONE << _U64(column * 7 + row)
            if cur & bit:
                code = (code << 2) | 2
            elif opp & bit:
                code = (code << 2) | 3
            else:
                break
        code <<= 1
    code <<= 1
    return code - (np.int64(1) << 32) if code >= (np.int64(1) << 31) else code


@njit(cache=True, inline="always", _nrt=False)
def _db_key(consts: np.ndarray, i: np.int64) -> int:  # pragma: no cover - compiled
    word = consts[np.int64(consts[C_DB_KEYS]) + (i >> 1)]
    half = np.int64((word >> _U64(32 * (i & 1))) & _U64(0xFFFFFFFF))
    return half - (np.int64(1) << 32) if half >= (np.int64(1) << 31) else half


@njit(cache=True, _nrt=False)
def _db_find(consts: np.ndarray, key: np.int64) -> int:  # pragma: no cover - compiled
    """The stone score stored under ``key`` (binary search), or :data:`DB_MISSING`."""
    low = np.int64(0)
    high = np.int64(consts[C_DB_COUNT])
    while low < high:
        middle = (low + high) >> 1
        if _db_key(consts, middle) < key:
            low = middle + 1
        else:
            high = middle
    if low < np.int64(consts[C_DB_COUNT]) and _db_key(consts, low) == key:
        word = consts[np.int64(consts[C_DB_SCORES]) + (low >> 3)]
        byte = np.int64((word >> _U64(8 * (low & 7))) & _BYTE)
        return byte - 256 if byte >= 128 else byte
    return DB_MISSING


@njit(cache=True, _nrt=False)
def _database_score(cur: np.uint64, opp: np.uint64, consts: np.ndarray) -> int:  # pragma: no cover
    """``OpeningDatabase.lookup``: the stone score of a 12-stone position for ``cur``
    (X), its mirror image tried too, or :data:`DB_MISSING`."""
    found = _db_find(consts, _huffman(cur, opp, False))
    if found == DB_MISSING:
        found = _db_find(consts, _huffman(cur, opp, True))
    return found


# -- the table ---------------------------------------------------------------------
#
# A slot's third word: generation << 32 | move + 1 << 16 | high + 128 << 8 | low + 128.


@njit(cache=True, inline="always", _nrt=False)
def _probe(
    k1: np.uint64, k2: np.uint64, gen: np.uint64, table: np.ndarray
) -> int:  # pragma: no cover - compiled
    """The slot holding ``(k1, k2)`` in this generation, or ``-1 - slot`` for the slot
    where it would go (the first free one, or its home slot if all are taken).
    Slots of another generation are free: starting a search clears the table."""
    h = (k1 * _HASH_A) ^ (k2 * _HASH_B)
    home = np.int64((h ^ (h >> _U64(31))) >> _HASH_SHIFT)
    for p in range(PROBES):
        slot = (home + p) & _SLOT_MASK
        if (table[slot, 2] >> _U64(32)) != gen:
            return -1 - slot
        if table[slot, 0] == k1 and table[slot, 1] == k2:
            return slot
    return -1 - home


@njit(cache=True, inline="always", _nrt=False)
def _stored(value: np.int64) -> int:  # pragma: no cover - compiled
    if value >= _INF:
        stones = _STORED_INF
    elif value <= -_INF:
        stones = -_STORED_INF
    else:
        stones = value // _UNIT
    return _U64(stones + 128)


@njit(cache=True, inline="always", _nrt=False)
def _loaded(byte: np.uint64) -> int:  # pragma: no cover - compiled
    stones = np.int64(byte) - 128
    if stones >= _STORED_INF:
        return _INF
    if stones <= -_STORED_INF:
        return -_INF
    return stones * _UNIT


# -- the node ----------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def negamax(
    cur: np.uint64,
    opp: np.uint64,
    opp_wins: np.uint64,
    ply: np.int64,
    alpha: np.int64,
    beta: np.int64,
    consts: np.ndarray,
    table: np.ndarray,
    scratch: np.ndarray,
    state: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """``Searcher.negamax`` at exact depth; returns 0 with ``state[S_STOP]`` set when
    the node cap is passed (the caller must then discard the result)."""
    state[S_NODES] += 1
    if state[S_NODES] % CHECK_EVERY == 0 and state[S_NODES] > state[S_CAP]:
        state[S_STOP] = 1
        return 0
    half = np.int64(consts[C_HALF])
    occupied = cur | opp

    # 2. Forced moves.
    moves = _safe_moves(occupied, opp_wins, consts)
    if not moves:
        return -(half - (ply + 1) // 2) * _UNIT
    if ply >= np.int64(consts[C_CELLS]) - 2:
        return 0
    if ply == DB_PLIES and consts[C_DB_COUNT]:
        stones = _database_score(cur, opp, consts)
        if stones != DB_MISSING:
            return stones * _UNIT

    # 3. Bounds from the stones left.
    low = -(half - (ply + 3) // 2) * _UNIT
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (half - (ply + 2) // 2) * _UNIT
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta

    # 4. Table.
    gen = _U64(state[S_GEN])
    k1, k2 = _key(cur, opp, consts)
    slot = _probe(k1, k2, gen, table)
    found = slot >= 0
    entry_low = -_INF
    entry_high = _INF
    table_move = _ZERO
    if found:
        info = table[slot, 2]
        entry_low = _loaded(info & _BYTE)
        entry_high = _loaded((info >> _U64(8)) & _BYTE)
        move = (info >> _U64(16)) & _BYTE
        if move:
            table_move = _ONE << (move - _ONE)
        if entry_low > alpha:
            alpha = entry_low
            if alpha >= beta:
                return alpha
        if entry_high < beta:
            beta = entry_high
            if alpha >= beta:
                return beta

    # 5. Children, best first: table move, then threats, then the static order.
    empty = consts[C_BOARD] & ~occupied
    row = scratch[ply]
    count = 0
    for i in range(consts[C_ORDER_LEN]):
        # On gravity boards the order holds columns: one playable cell in each at most.
        bit = moves & consts[C_ORDER + i]
        if not bit:
            continue
        threats = _winning_cells(cur | bit, empty ^ bit, consts, scratch)
        weight = _TABLE_MOVE_ORDER if bit == table_move else _U64(_popcount(threats))
        # Insertion sort, descending and stable like the pure sort.
        j = count
        while j > 0 and row[128 + j - 1] < weight:
            row[j] = row[j - 1]
            row[64 + j] = row[64 + j - 1]
            row[128 + j] = row[128 + j - 1]
            j -= 1
        row[j] = bit
        row[64 + j] = threats
        row[128 + j] = weight
        count += 1

    window_low = alpha
    best = -_INF
    best_bit = _ZERO
    for i in range(count):
        bit = row[i]
        score = -negamax(
            opp, cur | bit, row[64 + i], ply + 1, -beta, -alpha, consts, table, scratch, state
        )
        if state[S_STOP]:
            return 0
        if score > best:
            best = score
            best_bit = bit
            if score >= beta:
                break
            if score > alpha:
                alpha = score

    if best <= window_low:
        new_low, new_high = -_INF, best
    elif best >= beta:
        new_low, new_high = best, _INF
    else:
        new_low, new_high = best, best
    if found:
        new_low = max(new_low, entry_low)
        new_high = min(new_high, entry_high)
    slot = _probe(k1, k2, gen, table)
    if slot < 0:
        slot = -1 - slot
    table[slot, 0] = k1
    table[slot, 1] = k2
    move_code = _U64(_popcount(best_bit - _ONE) + 1)
    table[slot, 2] = (
        (gen << _U64(32)) | (move_code << _U64(16)) | (_stored(new_high) << _U64(8))
    ) | _stored(new_low)
    return best


@njit(cache=True, _nrt=False)
def table_move(
    cur: np.uint64, opp: np.uint64, consts: np.ndarray, table: np.ndarray, gen: np.int64
) -> int:  # pragma: no cover - compiled
    """The best move stored for the position, or 0."""
    k1, k2 = _key(cur, opp, consts)
    slot = _probe(k1, k2, _U64(gen), table)
    if slot < 0:
        return _ZERO
    move = (table[slot, 2] >> _U64(16)) & _BYTE
    return _ONE << (move - _ONE) if move else _ZERO
