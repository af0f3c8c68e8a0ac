#!/usr/bin/env bash
# End-to-end checks of `crowdsim render`: the videos hold every frame asked for at the rate asked
# for (read back with ffprobe), and --no-annotations draws the scene alone. The annotations'
# pixels are checked in tests/viewer/test_annotations.cpp.
# Usage: render_checks.sh CROWDSIM WORK_DIR CASE
# Exit 77: the check cannot run here (it says why); ctest shows it as skipped.
set -u
crowdsim=$1
work=$2
check=$3
helpers="$(dirname "$0")/check_helpers.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=check_helpers.sh
source "$helpers"

# Frames and seconds of a video, as ffprobe reads them from the file.
frames_of() {
  ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"
}
seconds_of() {
  ffprobe -v error -show_entries format=duration -of csv=p=0 "$1"
}

case "$check" in
  video_frames_at_fps)
    command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || { echo "no ffmpeg: skipped"; exit 77; }
    # 30 frames at 10 a second: 30 frames lasting 3 s in each video.
    run render builtin crossing --agents 40 --frames 30 --fps 10 --size 320x200 --out v -q
    [ "$rc" = 0 ] || fail "exit code $rc"
    for video in v/crowd.gif v/crowd.mp4; do
      [ -s "$video" ] || fail "no $video"
      frames=$(frames_of "$video")
      seconds=$(seconds_of "$video")
      [ "$frames" = 30 ] || fail "$video has $frames frames, not 30"
      awk -v s="$seconds" 'BEGIN { exit !(s > 2.95 && s < 3.05) }' || fail "$video lasts $seconds s, not 3"
      echo "$video: $frames frames, $seconds s"
    done
    grep -q "crowd.gif (30 frames at 10 a second: 3 s)" out.txt || fail "the report does not say the GIF's length"
    ;;
  default_fps_keeps_every_frame)
    command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || { echo "no ffmpeg: skipped"; exit 77; }
    # 30 frames at the default 30 a second: the GIF once kept every other frame (15, 0.99 s).
    run render builtin crossing --agents 40 --frames 30 --size 320x200 --out v -q --video gif
    [ "$rc" = 0 ] || fail "exit code $rc"
    frames=$(frames_of v/crowd.gif)
    seconds=$(seconds_of v/crowd.gif)
    [ "$frames" = 30 ] || fail "the GIF has $frames frames, not 30"
    awk -v s="$seconds" 'BEGIN { exit !(s > 0.97 && s < 1.03) }' || fail "the GIF lasts $seconds s, not 1"
    echo "crowd.gif: $frames frames, $seconds s"
    ;;
  annotations_off)
    # The same frame with and without annotations: they differ, and two renders without are the same.
    for out in a b c; do
      flag=""
      [ "$out" = a ] || flag="--no-annotations"
      run render "$(dirname "$0")/../../scenarios/corridor_measure.json" --frames 1 --start 20 --size 480x270 \
          --out "$out" --video none -q $flag
      [ "$rc" = 0 ] || fail "exit code $rc ($out)"
    done
    cmp -s a/frame-00000.png b/frame-00000.png && fail "the annotated frame is the plain one"
    cmp -s b/frame-00000.png c/frame-00000.png || fail "two plain frames of one moment differ"
    echo "annotations drawn, and left out with --no-annotations"
    ;;
  bad_fps_refused)
    run render builtin crossing --frames 2 --fps 0 --out v -q
    [ "$rc" != 0 ] || fail "--fps 0 was taken"
    grep -q -- "--fps" err.txt || fail "the refusal does not name --fps"
    echo "--fps 0 refused"
    ;;
  *)
    echo "unknown check $check"
    exit 1
    ;;
esac
