"""One frame of a shot: rotor at an angle, the ball, then the camera, lamp and scene effects
(a specular glare or a hand over the ball). Photometric nuisances are left to the caller."""
from __future__ import annotations

import cv2
import numpy as np

from services.scenes import nuisances as nz
from services.scenes.wheel import draw
from services.scenes.wheel.ballplace import Ball
from services.scenes.wheel.camera import FRAME_H, FRAME_W, PX1, PX2, Shot

SKIN = ((150, 180, 225), (110, 145, 195), (70, 100, 150), (45, 65, 100))
SLEEVES = ((25, 25, 25), (235, 235, 235), (40, 30, 110), (70, 40, 20))


def _spin(img: np.ndarray, alpha: np.ndarray, angle: float, blur: float):
    """Rotor turned by `angle`, averaged over `blur` degrees of travel (shutter open)."""
    steps = int(np.clip(np.deg2rad(blur) * PX2 / 2.0, 1, 24))
    angles = [angle] if steps == 1 else list(angle + blur * (np.linspace(0, 1, steps) - 0.5))
    acc_i = np.zeros(img.shape, np.float32)
    acc_a = np.zeros(alpha.shape, np.float32)
    for a in angles:
        acc_i += draw.rotated(img, a).astype(np.float32)
        acc_a += draw.rotated(alpha, a)
    return acc_i / len(angles), (acc_a / len(angles))[..., None]


def _ball_xy2(c2: float, r: float, theta: float) -> np.ndarray:
    t = np.deg2rad(theta)
    return np.array([c2 + r * PX2 * np.cos(t), c2 + r * PX2 * np.sin(t)])


def _shadow(img, p, ball: Ball, ball_r, light: float) -> None:
    away = -np.array([np.cos(light), np.sin(light)])
    off = (0.3 + 0.6 * ball.height) * ball_r
    draw.shadow(img, p + away * off, ball_r, soft=1.5 + 1.5 * ball.height,
                depth=0.5 / (1 + 0.4 * ball.height))


def _streaked_ball(canvas: np.ndarray, p: np.ndarray, ball: Ball, ball_r: float,
                   light: float) -> None:
    """Composite a ball smeared along its path over the exposure time."""
    length = max(1.0, ball.streak * 2 * ball_r)
    m = int(ball_r + length) + 6
    x0, y0 = int(p[0]) - m, int(p[1]) - m
    local = p - np.array([x0, y0])
    layer, alpha = draw.ball_layer(2 * m, local, ball_r)
    t = np.deg2rad(ball.theta + 90 + ball.heading)
    k = int(length) | 1
    kernel = np.zeros((k, k), np.float32)
    kernel[k // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D((k // 2, k // 2), -np.rad2deg(t), 1.0)
    # float32 in, float32 out (asarray copies nothing); the stubs say "any numeric array"
    kernel = np.asarray(cv2.warpAffine(kernel, rot, (k, k)), np.float32)
    kernel /= max(float(kernel.sum()), 1e-6)
    pre = cv2.filter2D(layer.astype(np.float32) * alpha[..., None], -1, kernel)
    a = cv2.filter2D(alpha, -1, kernel)[..., None]
    # the streak may run past the canvas edge: blend only the part inside it
    h, w = canvas.shape[:2]
    ya, xa = max(y0, 0), max(x0, 0)
    yb, xb = min(y0 + 2 * m, h), min(x0 + 2 * m, w)
    sub = (slice(ya - y0, yb - y0), slice(xa - x0, xb - x0))
    roi = canvas[ya:yb, xa:xb]
    roi[:] = roi * (1 - a[sub]) + pre[sub]


def wheel_canvas(shot: Shot, rotor_angle: float, rotor_blur: float,
                 ball: Ball | None) -> np.ndarray:
    """The wheel from straight above at 1x canonical scale (BGR uint8)."""
    st = shot.style
    assert st is not None
    static = draw.static_layer(st, PX2)
    rotor, alpha = draw.rotor_layer(st, shot.variant, PX2)
    c2 = static.shape[0] // 2
    ball_r = st.bands.ball * PX2
    if ball is not None and ball.on_rotor:
        rotor = rotor.copy()
        p = _ball_xy2(c2, ball.r, ball.theta - rotor_angle)
        light = shot.light_angle - np.deg2rad(rotor_angle)
        _shadow(rotor, p, ball, ball_r, light)
        draw.draw_ball(rotor, p, ball_r, light)
    img, a = _spin(rotor, alpha, rotor_angle, rotor_blur)
    canvas = static.astype(np.float32) * (1 - a) + img * a
    if ball is not None and not ball.on_rotor:
        p = _ball_xy2(c2, ball.r, ball.theta)
        shade = np.clip(canvas, 0, 255).astype(np.uint8)
        _shadow(shade, p, ball, ball_r, shot.light_angle)
        canvas = shade.astype(np.float32)
        if ball.streak > 0:
            _streaked_ball(canvas, p, ball, ball_r, shot.light_angle)
        else:
            out = np.clip(canvas, 0, 255).astype(np.uint8)
            draw.draw_ball(out, p, ball_r, shot.light_angle)
            canvas = out
    return cv2.pyrDown(np.clip(canvas, 0, 255).astype(np.uint8))


def ball_canonical(shot: Shot, ball: Ball) -> np.ndarray:
    """The ball centre in 1x canonical pixels."""
    c1 = shot.size1 / 2.0
    t = np.deg2rad(ball.theta)
    return np.array([c1 + ball.r * PX1 * np.cos(t), c1 + ball.r * PX1 * np.sin(t)])


def glare(img: np.ndarray, at: np.ndarray, ball_r: float, rng: np.random.Generator) -> None:
    """A lamp reflected by the glossy rotor right over the ball: saturated, hides it."""
    centre = at + rng.uniform(-0.5, 0.5, 2) * ball_r
    core, soft = rng.uniform(2.2, 3.5) * ball_r, rng.uniform(1.0, 2.0) * ball_r
    yy, xx = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
    d = np.sqrt((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2)
    m = np.where(d <= core, 1.0, np.exp(-((d - core) ** 2) / (2 * soft ** 2)))[..., None]
    white = np.array([rng.uniform(235, 255), rng.uniform(245, 255), 255.0], np.float32)
    img[:] = np.clip(img * (1 - m) + white * m, 0, 255).astype(np.uint8)


def hand(img: np.ndarray, at: np.ndarray, centre: np.ndarray, rotor_px: float,
         rng: np.random.Generator) -> None:
    """The croupier's hand over the ball, arm reaching in from outside the wheel."""
    u = at - centre
    u = u / max(float(np.linalg.norm(u)), 1e-6)
    v = np.array([-u[1], u[0]])
    palm = at + u * rng.uniform(-0.05, 0.1) * rotor_px + v * rng.uniform(-0.04, 0.04) * rotor_px
    skin = SKIN[int(rng.integers(len(SKIN)))]
    sleeve = SLEEVES[int(rng.integers(len(SLEEVES)))]
    layer = img.copy()
    far = palm + u * 3 * rotor_px
    cv2.line(layer, tuple(palm.astype(int) + (u * 0.25 * rotor_px).astype(int)),
             tuple(far.astype(int)), sleeve, int(0.24 * rotor_px), cv2.LINE_AA)
    ang = float(np.rad2deg(np.arctan2(u[1], u[0])))
    cv2.ellipse(layer, tuple(palm.astype(int)), (int(0.2 * rotor_px), int(0.14 * rotor_px)),
                ang, 0, 360, skin, -1, cv2.LINE_AA)
    for s in np.linspace(-0.09, 0.09, 4):
        tip = palm - u * 0.25 * rotor_px + v * s * rotor_px
        cv2.ellipse(layer, tuple(tip.astype(int)), (int(0.1 * rotor_px), int(0.035 * rotor_px)),
                    ang, 0, 360, tuple(int(c * 0.92) for c in skin), -1, cv2.LINE_AA)
    img[:] = layer


def frame(shot: Shot, rotor_angle: float, rotor_blur: float, ball: Ball | None,
          effect: str | None, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
    """The frame before photometric nuisances, and the ball centre in it (None: no wheel)."""
    img = shot.background.copy()
    ball_img = None
    if shot.style is not None:
        canon = wheel_canvas(shot, rotor_angle, rotor_blur, ball)
        size1 = canon.shape[0]
        warped = cv2.warpPerspective(canon, shot.h_cam, (FRAME_W, FRAME_H), flags=cv2.INTER_LINEAR)
        mask = np.zeros((size1, size1), np.float32)
        cv2.circle(mask, (size1 // 2, size1 // 2), int(shot.style.bands.bowl * PX1), 1.0, -1,
                   cv2.LINE_AA)
        m = cv2.warpPerspective(mask, shot.h_cam, (FRAME_W, FRAME_H))[..., None]
        img = (img * (1 - m) + warped * m).astype(np.uint8)
        if ball is not None:
            ball_img = nz.warp_points(ball_canonical(shot, ball)[None], shot.h_cam)[0]
    img = np.clip(img * shot.lamp, 0, 255).astype(np.uint8)
    if effect is not None and ball_img is not None and shot.style is not None:
        ball_r = shot.style.bands.ball * shot.rotor_px
        centre = nz.warp_points(np.array([[shot.size1 / 2.0] * 2]), shot.h_cam)[0]
        if effect == "glare":
            glare(img, ball_img, ball_r, rng)
        else:
            hand(img, ball_img, centre, shot.rotor_px, rng)
    if not np.allclose(shot.h_nuisance, np.eye(3)):
        img = nz.warp(img, shot.h_nuisance)
    final = None if ball_img is None else nz.warp_points(ball_img[None], shot.h_nuisance)[0]
    return img, final
