"""The 3D table: Panda3D view, pictures, picking and play.

Only this package (and ``tools/``, lazily) imports panda3d. The view is a
client of the engine (``engine.world.World``) and of the rules; neither of
them knows it exists. Everything drawn here is built from the engine's own
triangles, so what you see and click is what the rays test.
"""
