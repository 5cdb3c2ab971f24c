"""Calibration: the homography between image pixels and table millimetres, and an overlay to check it."""

from __future__ import annotations

import cv2
import numpy as np

from pipelines.config import Calibration
from pipelines.games.layout import Layout


class CalibrationError(ValueError):
    """Reference points that do not define a usable homography."""


def table_to_image(cal: Calibration) -> np.ndarray:
    """3x3 homography mapping table mm to image px."""
    if cal.homography is not None:
        H = np.asarray(cal.homography, np.float64)
    else:
        src = np.array([p.table_mm for p in cal.points], np.float64)
        dst = np.array([p.image_px for p in cal.points], np.float64)
        H, _ = cv2.findHomography(src, dst, 0)
        if H is None:
            raise CalibrationError("reference points are degenerate (three or more on one line?)")
        err = reprojection_error(H, src, dst)
        if err > 5.0:
            raise CalibrationError(f"reference points disagree: mean reprojection error {err:.1f} px (> 5 px)")
    if abs(np.linalg.det(H)) < 1e-12:
        raise CalibrationError("homography is singular")
    return H


def reprojection_error(H: np.ndarray, table_mm: np.ndarray, image_px: np.ndarray) -> float:
    return float(np.linalg.norm(apply_homography(H, table_mm) - image_px, axis=1).mean())


def apply_homography(H: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    homog = pts @ H[:, :2].T + H[:, 2]
    return homog[:, :2] / homog[:, 2:3]


# Where a calibration puts the layout in the frame says whether it was made for this camera: on the four
# bundled cameras the layout's zones span 48-57 % of the frame, all of them inside it. A calibration made
# for another resolution (a camera reconfigured after it was calibrated) shrinks or spills the layout.
MIN_LAYOUT_COVER = 0.15
MIN_LAYOUT_INSIDE = 0.9


def layout_fit(layout: Layout, H_table_to_image: np.ndarray, frame_size: tuple[int, int]) -> str | None:
    """What looks wrong with where the calibration puts the layout in a (width, height) frame, or None: its
    zones' bounding box mostly outside the frame, or covering too little of it."""
    pts = np.concatenate([apply_homography(H_table_to_image, np.array(z.polygon)) for z in layout.zones])
    (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
    w, h = frame_size
    inside = max(0.0, min(x1, w) - max(x0, 0)) * max(0.0, min(y1, h) - max(y0, 0))
    area = max((x1 - x0) * (y1 - y0), 1e-9)
    if inside / area < MIN_LAYOUT_INSIDE:
        return f"{100 * (1 - inside / area):.0f} % of the layout's zones lie outside the {w}x{h} frame"
    if inside / (w * h) < MIN_LAYOUT_COVER:
        return f"the layout's zones cover only {100 * inside / (w * h):.0f} % of the {w}x{h} frame"
    return None


def size_mismatch(calibrated: tuple[int, int] | None, frame: tuple[int, int]) -> str | None:
    """What is wrong when a camera's (width, height) frames are not the size its calibration was made on."""
    if calibrated is None or tuple(calibrated) == tuple(frame):
        return None
    return (f"the camera gives {frame[0]}x{frame[1]} frames but the calibration was made on "
            f"{calibrated[0]}x{calibrated[1]} (camera.frame_size): recalibrate (tablewatch calibrate) and set "
            "camera.frame_size to the camera's size, or set the camera back")


def draw_layout(frame: np.ndarray, layout: Layout, H_table_to_image: np.ndarray) -> np.ndarray:
    """The layout's zones drawn over a frame, so an installer can see the calibration fits."""
    out = frame.copy()
    colours = {"bet": (0, 255, 255), "paid": (0, 200, 0), "cards": (255, 128, 0), "card_box": (255, 128, 0)}
    for zone in layout.zones:
        poly = apply_homography(H_table_to_image, np.array(zone.polygon)).round().astype(np.int32)
        colour = colours.get(zone.kind, (200, 200, 200))
        cv2.polylines(out, [poly], True, colour, 1, cv2.LINE_AA)
        cx, cy = poly.mean(0).astype(int)
        cv2.putText(out, zone.name.split(".", 1)[-1][:10], (int(cx) - 12, int(cy)), cv2.FONT_HERSHEY_PLAIN,
                    0.7, colour, 1, cv2.LINE_AA)
    return out
