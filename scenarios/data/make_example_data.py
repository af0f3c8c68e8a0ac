#!/usr/bin/env python3
"""Makes the example data in this folder (Python standard library only; the output is committed).

courtyard.map, courtyard.map.scen
    A 48 x 48 grid map in the Moving AI format (rooms, doors, scattered trees and a diagonal pinch
    that only corner cutting could pass) and 80 route problems with their optimal lengths, found
    here by a plain Dijkstra search under the Moving AI rules (8-connected, diagonals cost sqrt(2),
    no corner cutting), independently of crowd's own A*.
plaza_walkers.txt
    A made-up recorded scene in the ETH/UCY text format (frame pedestrian x y, an annotation every
    10 frames = 0.4 s): 16 people crossing a 14 m square plaza in four directions at 1.0 to 1.6 m/s
    with a slight sway. Prints the walking-speed figures that the realism command must report.

Run: python3 scenarios/data/make_example_data.py (writes next to this file).
"""
import heapq
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


class Lcg:
    """A fixed pseudo-random sequence, so the files are the same on every run."""

    def __init__(self, seed):
        self.state = seed

    def next(self, n):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 33) % n


def courtyard():
    w = h = 48
    rows = [['.'] * w for _ in range(h)]
    for x in range(w):
        rows[0][x] = rows[h - 1][x] = 'T'
    for y in range(h):
        rows[y][0] = rows[y][w - 1] = 'T'
    for x in range(w):  # A wall across at y = 16 with two doors.
        if x not in (10, 11, 36):
            rows[16][x] = '@'
    for y in range(16, h):  # A wall down at x = 24 with one door.
        if y != 30:
            rows[y][24] = '@'
    rng = Lcg(20261128)
    for _ in range(90):  # Trees in the open yard above the wall.
        x, y = 2 + rng.next(w - 4), 2 + rng.next(13)
        rows[y][x] = 'T'
    # A gap in a wall that leads only to diagonal moves past two corners: a dead end without
    # corner cutting, a shortcut with it.
    for x in range(26, w - 1):
        rows[40][x] = '@'
    rows[40][35] = '.'
    rows[41][35] = '@'
    return w, h, rows


def passable(rows, x, y):
    return 0 <= y < len(rows) and 0 <= x < len(rows[0]) and rows[y][x] in '.G'


def distances(rows, sx, sy):
    """Dijkstra from (sx, sy): octile moves, a diagonal only if both cells beside it are free."""
    best = {(sx, sy): 0.0}
    heap = [(0.0, sx, sy)]
    while heap:
        d, x, y = heapq.heappop(heap)
        if d > best[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx == 0 and dy == 0:
                    continue
                nx, ny = x + dx, y + dy
                if not passable(rows, nx, ny):
                    continue
                if dx != 0 and dy != 0 and not (passable(rows, nx, y) and passable(rows, x, ny)):
                    continue
                nd = d + (math.sqrt(2.0) if dx != 0 and dy != 0 else 1.0)
                if nd < best.get((nx, ny), math.inf):
                    best[(nx, ny)] = nd
                    heapq.heappush(heap, (nd, nx, ny))
    return best


def write_courtyard():
    w, h, rows = courtyard()
    with open(os.path.join(HERE, 'courtyard.map'), 'w') as f:
        f.write('type octile\nheight %d\nwidth %d\nmap\n' % (h, w))
        for row in rows:
            f.write(''.join(row) + '\n')
    free = [(x, y) for y in range(h) for x in range(w) if passable(rows, x, y)]
    rng = Lcg(7)
    problems = []
    while len(problems) < 80:
        sx, sy = free[rng.next(len(free))]
        gx, gy = free[rng.next(len(free))]
        d = distances(rows, sx, sy).get((gx, gy))
        if d is None or d == 0.0:
            continue  # Unreachable (a tree-locked cell) or the same cell: not a problem.
        problems.append((int(d // 4), sx, sy, gx, gy, d))
    problems.sort(key=lambda p: p[5])
    with open(os.path.join(HERE, 'courtyard.map.scen'), 'w') as f:
        f.write('version 1\n')
        for bucket, sx, sy, gx, gy, d in problems:
            f.write('%d\tcourtyard.map\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f\n' % (bucket, w, h, sx, sy, gx, gy, d))
    print('courtyard: %d free cells, %d problems, lengths %.2f to %.2f' %
          (len(free), len(problems), problems[0][5], problems[-1][5]))


def write_plaza():
    dt = 0.4  # Seconds per 10 frames.
    rng = Lcg(11)
    walkers = []
    for i in range(16):
        direction = i % 4  # East, north, west, south.
        speed = 1.0 + 0.04 * rng.next(16)  # 1.00 to 1.60 m/s.
        lane = -4.0 + 0.5 * rng.next(17)
        start = 5 * i + rng.next(5)  # In annotation intervals.
        sway = 0.05 + 0.01 * rng.next(6)
        walkers.append((i + 1, direction, speed, lane, start, sway))
    lines = []
    speeds = []
    for pid, direction, speed, lane, start, sway in walkers:
        steps = int(14.0 / (speed * dt))
        previous = None
        for k in range(steps + 1):
            along = -7.0 + speed * dt * k
            side = lane + sway * math.sin(0.9 * k)
            x, y = [(along, side), (side, along), (-along, side), (side, -along)][direction]
            x, y = round(x, 2), round(y, 2)
            lines.append(((start + k) * 10, pid, x, y))
            if previous is not None:
                speeds.append(math.hypot(x - previous[0], y - previous[1]) / dt)
            previous = (x, y)
    lines.sort()
    with open(os.path.join(HERE, 'plaza_walkers.txt'), 'w') as f:
        f.write('# frame pedestrian x y: 16 people crossing a 14 m plaza, 0.4 s per 10 frames '
                '(made by make_example_data.py)\n')
        for frame, pid, x, y in lines:
            f.write('%d\t%d\t%.2f\t%.2f\n' % (frame, pid, x, y))
    speeds.sort()
    median = speeds[len(speeds) // 2] if len(speeds) % 2 else 0.5 * (speeds[len(speeds) // 2 - 1] + speeds[len(speeds) // 2])
    print('plaza: %d lines, %d speed samples, median %.3f m/s, min %.3f, max %.3f' %
          (len(lines), len(speeds), median, speeds[0], speeds[-1]))


if __name__ == '__main__':
    write_courtyard()
    write_plaza()
