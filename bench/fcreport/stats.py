"""Statistics, standard library only: the two-sided Mann-Whitney U test (exact null distribution for small
samples without ties, else the normal approximation with tie and continuity corrections)."""

import functools
import math

from .run import EXACT_MAX


def rank_with_ties(values):
    """1-based ranks of values (ties share their average rank) and the sizes of the tie groups."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks, ties = [0.0] * len(values), []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        if j > i:
            ties.append(j - i + 1)
        i = j + 1
    return ranks, ties


@functools.lru_cache(maxsize=None)
def u_null_counts(m, n):
    """counts[u], u = 0..m*n: how many of the C(m+n, m) equally likely orderings of m x's and n y's have U = u.

    These are the coefficients of the Gaussian binomial [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i),
    computed as integer power series truncated at degree m*n (exact: coefficient k only depends on those below)."""
    top = m * n
    c = [1] + [0] * top
    for i in range(1, m + 1):
        e = n + i
        for k in range(top, e - 1, -1):   # times (1 - q^e)
            c[k] -= c[k - e]
        for k in range(i, top + 1):        # divided by (1 - q^i)
            c[k] += c[k - i]
    return tuple(c)


def mann_whitney(x, y):
    """Two-sided Mann-Whitney U test of samples x and y.

    Returns (u, p, method): u = the number of pairs with x > y (a tie counts 1/2), p the two-sided p-value, method
    'exact' (no ties, both samples <= EXACT_MAX values) or 'normal' (with tie and continuity corrections)."""
    m, n = len(x), len(y)
    if not m or not n:
        raise ValueError("mann_whitney needs two non-empty samples")
    ranks, ties = rank_with_ties(list(x) + list(y))
    u = sum(ranks[:m]) - m * (m + 1) / 2
    if not ties and m <= EXACT_MAX and n <= EXACT_MAX:
        counts = u_null_counts(m, n)
        tail = sum(counts[: int(round(min(u, m * n - u))) + 1])
        return u, min(1.0, 2.0 * tail / math.comb(m + n, m)), "exact"
    total = m + n
    var = m * n / 12.0 * ((total + 1) - sum(t ** 3 - t for t in ties) / (total * (total - 1)))
    if var <= 0:  # every value equal
        return u, 1.0, "normal"
    z = max(0.0, abs(u - m * n / 2.0) - 0.5) / math.sqrt(var)
    return u, min(1.0, math.erfc(z / math.sqrt(2.0))), "normal"


def min_exact_p(m, n):
    """The smallest two-sided p the exact test can give (completely separated samples)."""
    return min(1.0, 2.0 / math.comb(m + n, m))
