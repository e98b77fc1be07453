"""Why a frame gives no decision. Shared by the renderer's labels and the reader, so a test
can check that the reader saw the same reason the scene was built with."""
from __future__ import annotations

BALL_ON_TRACK = "ball_on_track"          # rolling on the ball track (pista), not yet dropped
BALL_ON_DEFLECTOR = "ball_on_deflector"  # in the lower track, against a deflector (rombo)
BALL_ON_FRET = "ball_on_fret"            # on a separator between two pockets
BALL_MOVING = "ball_moving"              # no ball at rest to be seen: bouncing, blurred
GLARE = "glare"                          # a specular highlight hides the ball
OCCLUDED = "occluded"                    # a hand or object hides the ball
NO_WHEEL = "no_wheel"                    # no roulette wheel found in the frame
NO_BALL = "no_ball"                      # two ball-like spots in the ring: which is it?
ROTOR_UNREADABLE = "rotor_unreadable"    # the zero / pocket sequence could not be located
NOT_SETTLED = "not_settled"              # video: ball not yet in one pocket for N frames

SCENE_CASES = (BALL_ON_TRACK, BALL_ON_DEFLECTOR, BALL_ON_FRET, BALL_MOVING, GLARE, OCCLUDED)
