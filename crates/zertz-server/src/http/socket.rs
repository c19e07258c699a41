//! The sizes the service's WebSockets read with (the game, match and analysis sockets).

/// The read buffer of a socket. Actions are a few dozen bytes, and tungstenite zero-fills
/// what is free of the buffer on every read (a longer frame is still read whole, into a
/// buffer of its size); 18,000 sockets hold about 18 MB of buffers instead of 147.
pub const READ_BUFFER: usize = 1024;

/// The largest message a client may send (an action is a few dozen bytes).
pub const MAX_MESSAGE: usize = super::limit::MAX_BODY;

/// The largest frame read whole. Frames between [`MAX_MESSAGE`] and this are read to their end
/// and then refused with a close frame, which the client receives for sure; a longer frame is
/// refused from its header, and its unread rest may make the operating system reset the
/// connection before the close frame gets through.
pub const MAX_FRAME: usize = 4 * MAX_MESSAGE;
