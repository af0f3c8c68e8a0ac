"""Reads crowdsim's trajectory files the way PedPy's loaders read them, with what those loaders
use underneath (sqlite3 for JuPedSim's database, h5py for the data archive's HDF5, the text rules
of load_trajectory_from_txt), and checks that the three files of one run hold the same rows.

Usage: pedpy_loaders.py RUN.txt RUN.sqlite RUN.h5 AGENTS FRAMES FPS SEED VERSION
(SEED and VERSION: what each file's metadata must state as the run's seed and crowdsim's version.)
Exit 77 when h5py is missing (python3-h5py), saying so.
"""
import sqlite3
import sys

try:
    import h5py
except ImportError:
    print("skipped: /usr/bin/python3 has no h5py (apt-get install python3-h5py)")
    sys.exit(77)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def from_text(path):
    """load_trajectory_from_txt: '#' lines are the header; the frame rate is the first number on
    a header line holding 'framerate'; 'x/m' means metres; rows are id frame x y z."""
    fps, metres, rows, header = None, False, {}, ""
    with open(path) as text:
        for line in text:
            if line.startswith("#"):
                header += line
                if "framerate" in line and fps is None:
                    for word in line.split():
                        try:
                            fps = float(word)
                            break
                        except ValueError:
                            pass
                metres = metres or "x/m" in line
                continue
            ped, frame, x, y, _z = line.split()
            rows[(int(frame), int(ped))] = (float(x), float(y))
    if not metres:
        fail(path + ": no unit")
    return fps, rows, header


def from_database(path):
    """load_trajectory_from_jupedsim_sqlite and load_walkable_area_from_jupedsim_sqlite (v2)."""
    db = sqlite3.connect(path)
    version = int(db.execute("SELECT value FROM metadata WHERE key = 'version'").fetchone()[0])
    if version != 2:
        fail(path + ": version %d" % version)
    fps = float(db.execute("SELECT value FROM metadata WHERE key = 'fps'").fetchone()[0])
    rows = {(f, i): (x, y) for f, i, x, y in
            db.execute("SELECT frame, id, pos_x AS x, pos_y AS y FROM trajectory_data")}
    areas = [w for (w,) in db.execute("SELECT wkt FROM geometry")]
    meta = dict(db.execute("SELECT key, value FROM metadata"))
    return fps, rows, areas, meta


def from_archive(path):
    """load_trajectory_from_ped_data_archive_hdf5 and load_walkable_area_from_...: the dataset
    'trajectory' with fields id, frame, x, y and an 'fps' attribute; the root's 'wkt_geometry'."""
    with h5py.File(path, "r") as archive:
        if "trajectory" not in archive:
            fail(path + ": no 'trajectory' dataset")
        data = archive["trajectory"]
        if not {"id", "frame", "x", "y"}.issubset(set(data.dtype.names)):
            fail(path + ": fields " + str(data.dtype.names))
        if "fps" not in data.attrs:
            fail(path + ": no fps attribute")
        table = data[:]
        rows = {(int(r["frame"]), int(r["id"])): (float(r["x"]), float(r["y"])) for r in table}
        area = archive.attrs.get("wkt_geometry")
        meta = {k: archive.attrs[k] for k in ("crowdsim_version", "seed")}
        return float(data.attrs["fps"]), rows, area, meta


text_path, db_path, h5_path = sys.argv[1:4]
agents, frames, fps = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
seed, version = int(sys.argv[7]), sys.argv[8]
text_fps, text_rows, text_header = from_text(text_path)
db_fps, db_rows, db_areas, db_meta = from_database(db_path)
h5_fps, h5_rows, h5_area, h5_meta = from_archive(h5_path)
if "crowdsim %s (git " % version not in text_header or ", seed %d," % seed not in text_header:
    fail("the text header does not state version %s and seed %d:\n%s" % (version, seed, text_header))
if db_meta.get("crowdsim_version") != version or db_meta.get("seed") != str(seed):
    fail("the database metadata state %r" % (db_meta,))
if db_meta.get("every_steps") != "2" or db_meta.get("first_step") != "0":
    fail("the database metadata do not say which steps were kept: %r" % (db_meta,))
if h5_meta["crowdsim_version"] != version or int(h5_meta["seed"]) != seed:
    fail("the HDF5 attributes state %r" % (h5_meta,))
for name, got in (("text", text_fps), ("database", db_fps), ("HDF5", h5_fps)):
    if got != fps:
        fail("%s frame rate %r, expected %r" % (name, got, fps))
if len(db_rows) != agents * frames:
    fail("the database has %d rows, expected %d" % (len(db_rows), agents * frames))
# Text prints a float's shortest round-trip decimal (9 digits), the binary formats its double:
# they agree to the float's precision; the two binary formats hold the very same doubles.
for name, rows, tolerance in (("text", text_rows, 1e-6), ("HDF5", h5_rows, 0.0)):
    if set(rows) != set(db_rows):
        fail(name + " rows are not the database's (frame, id) pairs")
    worst = max(max(abs(a - b) for a, b in zip(rows[k], db_rows[k])) for k in rows)
    if worst > tolerance:
        fail("%s positions differ from the database's by %g m" % (name, worst))
if not isinstance(h5_area, str) or not h5_area.startswith("POLYGON (("):
    fail("the HDF5 walkable area is %r, not a WKT polygon string" % (h5_area,))
if db_areas != [h5_area]:
    fail("the HDF5 and database walkable areas differ")
print("read %d rows of %d frames at %g fps from each of the three files" % (len(db_rows), frames, fps))
