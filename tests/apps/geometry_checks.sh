#!/usr/bin/env bash
# End-to-end checks of `crowdsim geometry` (crowd/scene_geometry.hpp): the .wkt is one polygon
# whose holes are the solid obstacles, the .json a GeoJSON FeatureCollection of the scene's parts,
# and what cannot be written is refused. Both are read back by python3's standard library only.
# Usage: geometry_checks.sh CROWDSIM WORK_DIR CASE
# Exit 77: the check cannot run here (no python3); ctest shows it as skipped.
set -u
crowdsim=$1
work=$2
check=$3
helpers="$(dirname "$0")/check_helpers.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=check_helpers.sh
source "$helpers"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }

# WKT_FILE EXPECTED_HOLES [GEOJSON_FILE]: the WKT is a single POLYGON with that many holes and a
# closed exterior ring that holds every vertex of the holes (and of the GeoJSON's obstacles).
check_wkt() {
  python3 - "$@" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read().strip()
holes_expected = int(sys.argv[2])
m = re.fullmatch(r"POLYGON \((.*)\)", text)
if not m or "\n" in text:
    sys.exit("not one WKT POLYGON: " + text[:80])
rings = [[tuple(float(v) for v in point.split()) for point in ring.split(",")]
         for ring in re.findall(r"\(([^()]*)\)", m.group(1))]
for ring in rings:
    if len(ring) < 4 or ring[0] != ring[-1]:
        sys.exit("a ring is not closed: %r" % (ring[:3],))
exterior, holes = rings[0], rings[1:]
if len(holes) != holes_expected:
    sys.exit("%d holes, expected %d" % (len(holes), holes_expected))
def inside(p, ring):  # Even-odd rule; the exterior is at least a metre off every vertex.
    result = False
    for (ax, ay), (bx, by) in zip(ring, ring[1:]):
        if (ay > p[1]) != (by > p[1]) and p[0] < (bx - ax) * (p[1] - ay) / (by - ay) + ax:
            result = not result
    return result
vertices = [p for hole in holes for p in hole]
if len(sys.argv) > 3:
    for feature in json.load(open(sys.argv[3]))["features"]:
        if feature["properties"]["kind"] == "obstacle":
            geometry = feature["geometry"]
            points = geometry["coordinates"][0] if geometry["type"] == "Polygon" else geometry["coordinates"]
            vertices += [tuple(p) for p in points]
outside = [p for p in vertices if not inside(p, exterior)]
if outside:
    sys.exit("obstacle vertices outside the exterior: %r" % outside[:3])
PY
}

# GEOJSON_FILE KIND=COUNT...: a FeatureCollection whose features each have a geometry and a
# "kind", with these many of each kind (and no other kind).
check_geojson() {
  python3 - "$@" <<'PY'
import collections, json, sys
doc = json.load(open(sys.argv[1]))
if doc.get("type") != "FeatureCollection":
    sys.exit("not a FeatureCollection")
expected = {k: int(v) for k, v in (a.split("=") for a in sys.argv[2:])}
kinds = collections.Counter()
shapes = {"Polygon": 3, "LineString": 2, "Point": 1}
for f in doc["features"]:
    g = f["geometry"]
    if f.get("type") != "Feature" or g["type"] not in shapes:
        sys.exit("not a feature of a known geometry: %r" % f)
    if g["type"] == "Polygon":
        for ring in g["coordinates"]:
            if len(ring) < 4 or ring[0] != ring[-1]:
                sys.exit("an open ring in a %s" % f["properties"]["kind"])
    kinds[f["properties"]["kind"]] += 1
if dict(kinds) != expected:
    sys.exit("kinds %r, expected %r" % (dict(kinds), expected))
PY
}

case "$check" in
  bottleneck_wkt)
    # The room of the bottleneck: four walls, the east one split by the door, five solid blocks.
    run geometry builtin bottleneck --agents 50 --out walls.wkt
    [ "$rc" = 0 ] || fail "exit code $rc"
    run geometry builtin bottleneck --agents 50 --out walls.json
    [ "$rc" = 0 ] || fail "exit code $rc (json)"
    check_wkt walls.wkt 5 walls.json || fail "walls.wkt is not the room"
    check_geojson walls.json walkable_area=1 obstacle=5 || fail "walls.json is not the room"
    # Without --out, the same WKT on stdout, and nothing else there.
    run geometry builtin bottleneck --agents 50
    [ "$rc" = 0 ] || fail "exit code $rc (stdout)"
    cmp -s out.txt walls.wkt || fail "stdout is not the .wkt"
    ;;
  scene_parts)
    # Two solid blocks, a wall segment, a boundary round everything, a post (a circle), an area
    # and a line: holes for the blocks and the post only.
    cat >scene.json <<'JSON'
{ "steps": 10,
  "agents": [ {"position": [0, 0], "goal": [20, 0]}, {"position": [0, 3], "goal": [20, 3]} ],
  "obstacles": [ [[5, -6], [8, -6], [8, -4], [5, -4]],
                 [[12, 5], [14, 5], [14, 8], [12, 8]],
                 [[2, 10], [18, 10]],
                 [[-10, -10], [-10, 20], [30, 20], [30, -10]] ],
  "circles": [ [10, 1.5, 1] ],
  "measure": { "areas": [ {"name": "middle", "polygon": [[9, -3], [11, -3], [11, 6], [9, 6]]} ],
               "lines": [ {"name": "gate", "from": [15, -5], "to": [15, 9]} ] } }
JSON
    run geometry scene.json --out scene.wkt
    [ "$rc" = 0 ] || fail "exit code $rc"
    run geometry scene.json --out scene.geojson
    [ "$rc" = 0 ] || fail "exit code $rc (geojson)"
    check_wkt scene.wkt 3 scene.geojson || fail "scene.wkt: not two blocks and a post as holes"
    check_geojson scene.geojson walkable_area=1 obstacle=5 measurement_area=1 measurement_line=1 ||
      fail "scene.geojson does not hold the scene's parts"
    python3 - <<'PY' || fail "the parts are not where the scenario puts them"
import json, sys
features = json.load(open("scene.geojson"))["features"]
def of(kind, key, value):
    return [f for f in features if f["properties"]["kind"] == kind and f["properties"].get(key) == value]
(post,) = of("obstacle", "shape", "circle")
assert post["properties"]["center"] == [10, 1.5] and post["properties"]["radius"] == 1, post["properties"]
(wall,) = of("obstacle", "shape", "wall")
assert wall["geometry"] == {"type": "LineString", "coordinates": [[2, 10], [18, 10]]}, wall
assert len(of("obstacle", "shape", "boundary")) == 1 and len(of("obstacle", "shape", "solid")) == 2
(gate,) = of("measurement_line", "name", "gate")
assert gate["geometry"]["coordinates"] == [[15, -5], [15, 9]], gate
(middle,) = of("measurement_area", "name", "middle")
assert sorted(map(tuple, middle["geometry"]["coordinates"][0][:4])) == [(9, -3), (9, 6), (11, -3), (11, 6)]
PY
    ;;
  exits_kept)
    # The hall's people leave by the nearer of two doors: two exits, the map's walls an obstacle.
    run geometry "$(dirname "$0")/../../scenarios/hall_exits.json" --out hall.json
    [ "$rc" = 0 ] || fail "exit code $rc"
    python3 -c '
import json, sys
exits = [f["geometry"]["coordinates"] for f in json.load(open("hall.json"))["features"]
         if f["properties"]["kind"] == "exit"]
sys.exit(0 if len(exits) == 2 else "exits: %r" % exits)' || fail "hall.json does not hold the two exits"
    ;;
  refused)
    run geometry builtin sphere --out sphere.wkt
    [ "$rc" = 2 ] || fail "3D: exit code $rc, expected 2"
    grep -q "is a 3D world" err.txt || fail "3D: the message does not say why"
    [ ! -e sphere.wkt ] || fail "3D: a file was written"
    run geometry builtin bottleneck --out walls.svg
    [ "$rc" = 2 ] || fail "unknown extension: exit code $rc, expected 2"
    grep -q -- "--out walls.svg: the extension names the format: .wkt" err.txt || fail "extension: no reason given"
    [ ! -e walls.svg ] || fail "extension: a file was written"
    ;;
  *)
    echo "unknown check $check"
    exit 1
    ;;
esac
echo "ok ($check)"
