"""Framebuffers of our own: the director's offscreen picture and the renderer's still-frame
cache are each a :class:`Target` (colour and depth of one size), made, copied out and
released the same way."""

from __future__ import annotations

import moderngl

__all__ = ["Target", "sized", "warm_copies"]


class Target:
    """Colour (RGBA) and depth renderbuffers of ``size`` in one framebuffer, ``fbo``, and a
    view of the colour alone, ``colour``: a copy from it leaves the depth where it goes
    untouched, which the window's framebuffer needs (its depth format need not match ours)."""

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int]) -> None:
        self.ctx = ctx
        self.size = size
        self.fbo = ctx.framebuffer(
            color_attachments=[ctx.renderbuffer(size, components=4)],
            depth_attachment=ctx.depth_renderbuffer(size),
        )
        self.colour = ctx.framebuffer(color_attachments=self.fbo.color_attachments)

    def copy_colour_to(self, dst: moderngl.Framebuffer, origin: tuple[int, int] = (0, 0)) -> None:
        """Copy the colours into ``dst`` at the same size, their bottom-left corner at
        ``origin``. The window's framebuffer, and any place but the corner, is copied to with
        the GL call itself: ModernGL's object for the window's keeps the size the window had
        when the context was made, and its copy would fill only that much of a window made
        larger since; its copy knows no offset."""
        if dst.glo != 0 and origin == (0, 0):
            self.ctx.copy_framebuffer(dst, self.colour)
            return
        from pyglet import gl

        width, height = self.size
        x, y = origin
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self.colour.glo)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, dst.glo)
        gl.glBlitFramebuffer(
            0, 0, width, height, x, y, x + width, y + height, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST
        )
        dst.use()  # ModernGL binds its framebuffers itself from here on

    def release(self) -> None:
        """The framebuffers, then what was attached to them. The default framebuffer is bound
        first: ModernGL re-binds the previously bound one after creating the next framebuffer,
        and binding a deleted name is a GL error."""
        self.ctx.screen.use()
        attachments = [*self.fbo.color_attachments, self.fbo.depth_attachment]
        self.colour.release()
        self.fbo.release()
        for attachment in attachments:
            if attachment is not None:
                attachment.release()


def sized(ctx: moderngl.Context, target: Target | None, size: tuple[int, int]) -> Target:
    """``target`` when it has ``size``, else a new one (the old one released)."""
    if target is not None and target.size == size:
        return target
    if target is not None:
        target.release()
    return Target(ctx, size)


def warm_copies(
    ctx: moderngl.Context,
    target: Target | None,
    dst: moderngl.Framebuffer,
    origin: tuple[int, int],
    size: tuple[int, int],
) -> Target:
    """``target`` made to ``size`` (:func:`sized`), cleared, and its colours copied into
    ``dst`` at ``origin`` once, ahead of the still-frame cache's first copy: a software
    renderer (Mesa's llvmpipe) is slow at its first copy of a whole picture into the window
    (0.1-0.2 s here), which fell into the first still frame. What is copied into ``dst`` is
    drawn over by the frame drawn next."""
    target = sized(ctx, target, size)
    target.fbo.clear()
    target.copy_colour_to(dst, origin)
    return target
