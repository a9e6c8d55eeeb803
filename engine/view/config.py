"""Panda3D configuration (prc) for the view: window or offscreen, pipes, sizes.

Headless machines have no ``$DISPLAY``: the view then renders offscreen,
first through EGL (``p3headlessgl``: llvmpipe or a GPU), then through
Panda3D's software rasteriser (``p3tinydisplay``) when EGL cannot open.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

#: pipes tried in order for offscreen rendering
OFFSCREEN_PIPES = ("p3headlessgl", "p3tinydisplay")
#: pipes tried in order for a window on a screen
WINDOW_PIPES = ("pandagl", "p3tinydisplay")


def has_display() -> bool:
    """True when a window can be opened (an X11 or Wayland display is set)."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@dataclass(frozen=True)
class ViewConfig:
    width: int = 1280
    height: int = 720
    offscreen: bool | None = None      # None: offscreen exactly when there is no display
    multisamples: int | None = None    # None: 4 in a window, 0 offscreen (software renderer); 0 disables
    shadows: bool = True
    shadow_map: int | None = None      # None: 2048 in a window, 1024 offscreen
    title: str = "Eldfall referee"
    sync_video: bool = True
    pipes: tuple[str, ...] = field(default=())   # empty: the defaults for the mode

    @property
    def is_offscreen(self) -> bool:
        return (not has_display()) if self.offscreen is None else bool(self.offscreen)

    @property
    def samples(self) -> int:
        if self.multisamples is not None:
            return int(self.multisamples)
        return 0 if self.is_offscreen else 4

    @property
    def shadow_size(self) -> int:
        if self.shadow_map is not None:
            return int(self.shadow_map)
        return 1024 if self.is_offscreen else 2048

    def pipe_order(self) -> tuple[str, ...]:
        if self.pipes:
            return tuple(self.pipes)
        return OFFSCREEN_PIPES if self.is_offscreen else WINDOW_PIPES


def prc_text(cfg: ViewConfig, pipe: str | None = None) -> str:
    """The prc lines for ``cfg``; ``pipe`` overrides the first pipe to load."""
    order = cfg.pipe_order()
    first = pipe or order[0]
    aux = [p for p in order if p != first]
    lines = [
        f"load-display {first}",
        *[f"aux-display {p}" for p in aux],
        f"window-type {'offscreen' if cfg.is_offscreen else 'onscreen'}",
        f"win-size {cfg.width} {cfg.height}",
        f"window-title {cfg.title}",
        f"framebuffer-multisample {1 if cfg.samples else 0}",
        f"multisamples {cfg.samples}",
        "framebuffer-srgb false",
        f"sync-video {'true' if (cfg.sync_video and not cfg.is_offscreen) else 'false'}",
        "audio-library-name null",
        "show-frame-rate-meter false",
        "notify-level-device fatal",      # no /dev/input on headless machines
        "notify-level-display error",
        "notify-level-glgsg error",
        "notify-level-egldisplay error",
        "basic-shaders-only false",
        "gl-coordinate-system default",
    ]
    return "\n".join(lines) + "\n"
