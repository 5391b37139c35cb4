//! An upgraded socket split in two: tungstenite reads the client's frames, and the server
//! writes its own.
//!
//! Written by hand because of memory: tungstenite keeps a connection's write buffer at the size
//! of the largest write it ever made, and every `your_turn` carries the match's score sheet.
//! Server frames are the simple half of RFC 6455 (never masked, never fragmented here), so
//! [`FrameSink`] queues each frame as its header and its payload and writes a batch with one
//! vectored write: a frame's text, shared by every connection it goes to, is never copied. The
//! queue's memory is given back once written past `--ws-write-buffer`. Reading stays with
//! tungstenite, which also writes its own control frames (pong, close) into the same queue,
//! between whole frames.

use std::collections::VecDeque;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, ready};

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, Stream};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf, ReadHalf, WriteHalf};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{self as ts};

/// Splits `io`, a socket just upgraded to WebSocket, into the server's writing half and a
/// stream of the client's messages. A write buffer that grew past `keep` bytes is given back
/// once written. `config` sets the reading limits (its write settings are replaced:
/// tungstenite's own frames are handed on at once).
pub async fn split<S>(
    io: S,
    config: WebSocketConfig,
    keep: usize,
) -> (FrameSink<S>, MessageStream<S>)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let (read, write) = tokio::io::split(io);
    let out = Arc::new(Mutex::new(Outgoing {
        io: write,
        frames: VecDeque::new(),
        written: 0,
        sink_waiting: false,
        keep,
    }));
    let config = config.write_buffer_size(0);
    let side = ReadSide {
        read,
        out: out.clone(),
    };
    let inner = WebSocketStream::from_raw_socket(side, Role::Server, Some(config)).await;
    (FrameSink { out }, MessageStream { inner })
}

/// The socket's writing side and the frames waiting for it.
struct Outgoing<S> {
    io: WriteHalf<S>,
    /// Whole frames, in order; `written` bytes of the first are already in the socket.
    frames: VecDeque<OutFrame>,
    written: usize,
    /// The sink is waiting for the socket to take more: it will write whatever is appended.
    sink_waiting: bool,
    /// The most memory kept for waiting frames between writes, in bytes.
    keep: usize,
}

/// The most slices handed to one vectored write (two a frame: header and payload). A batch
/// is rarely more than a few frames; a longer one takes more writes, and every slice is set
/// up at every write.
const MAX_SLICES: usize = 16;

/// The longest header: the first byte, the length's marker and a 64-bit length.
const MAX_HEADER: usize = 10;

/// One frame waiting: its header, written here, and its payload, written from where it lies
/// (a frame's text is shared by every connection it goes to, and is never copied).
struct OutFrame {
    head: [u8; MAX_HEADER],
    head_len: u8,
    body: Body,
}

/// A payload as it came.
enum Body {
    Text(Utf8Bytes),
    Bytes(Bytes),
}

impl OutFrame {
    /// An unmasked, final frame of `opcode` around `body`.
    fn new(opcode: u8, body: Body) -> OutFrame {
        const FIN: u8 = 0x80;
        let mut head = [0u8; MAX_HEADER];
        head[0] = FIN | opcode;
        let head_len = match body.as_ref().len() {
            len @ 0..=125 => {
                head[1] = len as u8;
                2
            }
            len @ 126..=0xFFFF => {
                head[1] = 126;
                head[2..4].copy_from_slice(&(len as u16).to_be_bytes());
                4
            }
            len => {
                head[1] = 127;
                head[2..10].copy_from_slice(&(len as u64).to_be_bytes());
                10
            }
        };
        OutFrame {
            head,
            head_len,
            body,
        }
    }

    /// Bytes already framed (tungstenite's own frames), written as they are.
    fn raw(bytes: &[u8]) -> OutFrame {
        OutFrame {
            head: [0; MAX_HEADER],
            head_len: 0,
            body: Body::Bytes(Bytes::copy_from_slice(bytes)),
        }
    }

    /// `msg` as a frame.
    fn of(msg: Message) -> OutFrame {
        let control = |bytes: Bytes| bytes.slice(..bytes.len().min(125));
        match msg {
            Message::Text(text) => OutFrame::new(0x1, Body::Text(text)),
            Message::Binary(bytes) => OutFrame::new(0x2, Body::Bytes(bytes)),
            Message::Close(None) => OutFrame::new(0x8, Body::Bytes(Bytes::new())),
            Message::Close(Some(CloseFrame { code, reason })) => {
                let mut payload = Vec::with_capacity(2 + reason.len());
                payload.extend_from_slice(&code.to_be_bytes());
                // A control frame holds at most 125 bytes: the reason is cut at a character.
                let mut end = reason.len().min(123);
                while !reason.as_str().is_char_boundary(end) {
                    end -= 1;
                }
                payload.extend_from_slice(&reason.as_bytes()[..end]);
                OutFrame::new(0x8, Body::Bytes(payload.into()))
            }
            Message::Ping(bytes) => OutFrame::new(0x9, Body::Bytes(control(bytes))),
            Message::Pong(bytes) => OutFrame::new(0xA, Body::Bytes(control(bytes))),
        }
    }

    fn head(&self) -> &[u8] {
        &self.head[..usize::from(self.head_len)]
    }

    fn len(&self) -> usize {
        usize::from(self.head_len) + self.body.as_ref().len()
    }
}

impl AsRef<[u8]> for Body {
    fn as_ref(&self) -> &[u8] {
        match self {
            Body::Text(text) => text.as_bytes(),
            Body::Bytes(bytes) => bytes,
        }
    }
}

impl<S: AsyncRead + AsyncWrite> Outgoing<S> {
    /// Writes the waiting frames into the socket, many to a vectored write; once all are in,
    /// lets the queue's memory go if it grew large.
    fn poll_write_out(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.frames.is_empty() {
            let mut slices = [IoSlice::new(&[]); MAX_SLICES];
            let count = fill_slices(&self.frames, self.written, &mut slices);
            match Pin::new(&mut self.io).poll_write_vectored(cx, &slices[..count]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => self.advance(n),
                Poll::Ready(Err(err)) => return Poll::Ready(Err(err)),
                Poll::Pending => return Poll::Pending,
            }
        }
        if self.frames.capacity() * std::mem::size_of::<OutFrame>() > self.keep {
            self.frames = VecDeque::new();
        }
        Pin::new(&mut self.io).poll_flush(cx)
    }

    /// Drops what the socket took: `n` bytes past the `written` ones.
    fn advance(&mut self, n: usize) {
        let mut done = self.written + n;
        while let Some(front) = self.frames.front() {
            let len = front.len();
            if done < len {
                break;
            }
            done -= len;
            self.frames.pop_front();
        }
        self.written = done;
    }
}

/// The unwritten bytes of `frames` (the first `written` bytes of the first are gone) as
/// slices, as many as fit; returns how many it filled.
fn fill_slices<'a>(
    frames: &'a VecDeque<OutFrame>,
    mut written: usize,
    slices: &mut [IoSlice<'a>],
) -> usize {
    let mut count = 0;
    for frame in frames {
        for part in [frame.head(), frame.body.as_ref()] {
            let skip = written.min(part.len());
            written -= skip;
            let rest = &part[skip..];
            if rest.is_empty() {
                continue;
            }
            if count == slices.len() {
                return count;
            }
            slices[count] = IoSlice::new(rest);
            count += 1;
        }
    }
    count
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The server's half: a [`Sink`] of messages, each written as one frame. `feed` only appends
/// to the buffer; `flush` writes it, so a batch fed together leaves in one write.
pub struct FrameSink<S> {
    out: Arc<Mutex<Outgoing<S>>>,
}

impl<S: AsyncRead + AsyncWrite> Sink<Message> for FrameSink<S> {
    type Error = io::Error;

    fn poll_ready(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn start_send(self: Pin<&mut Self>, msg: Message) -> io::Result<()> {
        lock(&self.out).frames.push_back(OutFrame::of(msg));
        Ok(())
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut out = lock(&self.out);
        let polled = out.poll_write_out(cx);
        out.sink_waiting = polled.is_pending();
        polled
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut out = lock(&self.out);
        let flushed = out.poll_write_out(cx);
        out.sink_waiting = flushed.is_pending();
        ready!(flushed)?;
        Pin::new(&mut out.io).poll_shutdown(cx)
    }
}

/// What tungstenite reads from and writes its control frames to.
struct ReadSide<S> {
    read: ReadHalf<S>,
    out: Arc<Mutex<Outgoing<S>>>,
}

impl<S: AsyncRead + AsyncWrite> AsyncRead for ReadSide<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.read).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite> AsyncWrite for ReadSide<S> {
    /// Takes all of `bytes` (tungstenite hands over whole frames) and writes them now unless
    /// the sink is mid-write, in which case they leave with its frames. What the socket will
    /// not take now leaves when it can, at the reader's next turn ([`MessageStream`]) or
    /// with the sink's next write, whichever comes first.
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        let mut out = lock(&self.out);
        out.frames.push_back(OutFrame::raw(bytes));
        if !out.sink_waiting {
            // An error shows again on the sink's next write; the reader goes on reading.
            let _ = out.poll_write_out(cx);
        }
        Poll::Ready(Ok(bytes.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// The client's half: its messages, as axum names them, in order.
pub struct MessageStream<S> {
    inner: WebSocketStream<ReadSide<S>>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Stream for MessageStream<S> {
    type Item = Result<Message, axum::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        {
            // Tungstenite's frames the socket could not take when they came (the sink was
            // idle, so nobody else will write them): the reader is woken when it can.
            let mut out = lock(&self.inner.get_ref().out);
            if !out.sink_waiting && !out.frames.is_empty() {
                let _ = out.poll_write_out(cx);
            }
        }
        loop {
            let next = ready!(Pin::new(&mut self.inner).poll_next(cx));
            let msg = match next {
                None => return Poll::Ready(None),
                Some(Err(err)) => return Poll::Ready(Some(Err(axum::Error::new(err)))),
                Some(Ok(msg)) => msg,
            };
            if msg.is_close() {
                // Tungstenite has queued the closing handshake's reply: hand it on now, as
                // the client waits for it (an error here is the socket's, seen again later).
                let _ = Pin::new(&mut self.inner).poll_flush(cx);
            }
            // A raw frame is never read back: tungstenite gives whole messages.
            if let Some(msg) = from_tungstenite(msg) {
                return Poll::Ready(Some(msg));
            }
        }
    }
}

/// Tungstenite's message as axum's (text is checked UTF-8 already; checking again is cheap
/// next to parsing it).
fn from_tungstenite(msg: ts::Message) -> Option<Result<Message, axum::Error>> {
    let text = |t: ts::Utf8Bytes| Utf8Bytes::try_from(Bytes::from(t)).map_err(axum::Error::new);
    Some(match msg {
        ts::Message::Text(t) => text(t).map(Message::Text),
        ts::Message::Binary(b) => Ok(Message::Binary(b)),
        ts::Message::Ping(b) => Ok(Message::Ping(b)),
        ts::Message::Pong(b) => Ok(Message::Pong(b)),
        ts::Message::Close(None) => Ok(Message::Close(None)),
        ts::Message::Close(Some(frame)) => text(frame.reason).map(|reason| {
            Message::Close(Some(CloseFrame {
                code: frame.code.into(),
                reason,
            }))
        }),
        ts::Message::Frame(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::{SinkExt, StreamExt};
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream, duplex};

    /// A server half over an in-memory pipe of `capacity` bytes, and the client's end.
    /// The most buffer the tests' sinks keep.
    const KEEP: usize = 2048;

    async fn pair(
        capacity: usize,
    ) -> (
        FrameSink<DuplexStream>,
        MessageStream<DuplexStream>,
        DuplexStream,
    ) {
        let (server, client) = duplex(capacity);
        let (sink, stream) = split(server, WebSocketConfig::default(), KEEP).await;
        (sink, stream, client)
    }

    /// Reads one unmasked frame from the client's end: (first byte, payload).
    async fn read_frame(client: &mut DuplexStream) -> (u8, Vec<u8>) {
        let mut head = [0u8; 2];
        client.read_exact(&mut head).await.unwrap();
        assert_eq!(head[1] & 0x80, 0, "server frames are never masked");
        let len = match head[1] & 0x7F {
            126 => u64::from(client.read_u16().await.unwrap()),
            127 => client.read_u64().await.unwrap(),
            n => u64::from(n),
        };
        let mut payload = vec![0u8; len as usize];
        client.read_exact(&mut payload).await.unwrap();
        (head[0], payload)
    }

    /// A masked frame from the client, as RFC 6455 requires of clients.
    fn client_frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
        assert!(payload.len() < 126);
        let mask = [0x12, 0x34, 0x56, 0x78];
        let mut frame = vec![0x80 | opcode, 0x80 | payload.len() as u8];
        frame.extend_from_slice(&mask);
        frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        frame
    }

    #[tokio::test]
    async fn each_length_gets_its_header_and_the_payload_whole() {
        let (mut sink, _stream, mut client) = pair(1 << 20).await;
        for len in [0, 125, 126, 0xFFFF, 0x1_0000] {
            let text = "x".repeat(len);
            sink.send(Message::Text(text.clone().into())).await.unwrap();
            let (first, payload) = read_frame(&mut client).await;
            assert_eq!(first, 0x81, "final text frame, length {len}");
            assert_eq!(payload, text.as_bytes(), "length {len}");
        }
    }

    #[tokio::test]
    async fn a_batch_fed_together_arrives_in_order_and_a_large_queue_is_let_go() {
        let (mut sink, _stream, mut client) = pair(1 << 20).await;
        let big = "y".repeat(4 * KEEP);
        sink.feed(Message::Text("first".into())).await.unwrap();
        sink.feed(Message::Text(big.clone().into())).await.unwrap();
        sink.feed(Message::Ping(Bytes::from_static(b"p")))
            .await
            .unwrap();
        // More frames than the queue keeps room for between writes.
        let many = KEEP / std::mem::size_of::<OutFrame>() + 1;
        for i in 0..many {
            sink.feed(Message::Text(i.to_string().into()))
                .await
                .unwrap();
        }
        sink.flush().await.unwrap();
        assert_eq!(read_frame(&mut client).await, (0x81, b"first".to_vec()));
        assert_eq!(read_frame(&mut client).await, (0x81, big.into_bytes()));
        assert_eq!(read_frame(&mut client).await, (0x89, b"p".to_vec()));
        for i in 0..many {
            assert_eq!(
                read_frame(&mut client).await,
                (0x81, i.to_string().into_bytes())
            );
        }
        let out = lock(&sink.out);
        assert!(out.frames.is_empty());
        assert_eq!(
            out.frames.capacity(),
            0,
            "a queue grown past the kept size is given back"
        );
        assert_eq!(out.written, 0);
    }

    #[tokio::test]
    async fn a_small_queue_is_kept_for_the_next_write() {
        let (mut sink, _stream, mut client) = pair(1 << 16).await;
        sink.send(Message::Text("small".into())).await.unwrap();
        read_frame(&mut client).await;
        let out = lock(&sink.out);
        assert!(out.frames.is_empty());
        let kept = out.frames.capacity() * std::mem::size_of::<OutFrame>();
        assert!(kept > 0 && kept <= KEEP);
    }

    /// Slices for a write part-way through the first frame: its rest, then whole frames,
    /// never more slices than there is room for.
    #[test]
    fn slices_start_where_the_socket_stopped() {
        let frames: VecDeque<OutFrame> = ["abc", "de"]
            .into_iter()
            .map(|text| OutFrame::of(Message::Text(text.into())))
            .collect();
        let gather = |written: usize, room: usize| {
            let mut slices = vec![IoSlice::new(&[]); room];
            let count = fill_slices(&frames, written, &mut slices);
            slices[..count]
                .iter()
                .flat_map(|slice| slice.to_vec())
                .collect::<Vec<u8>>()
        };
        let all = gather(0, MAX_SLICES);
        assert_eq!(all, [0x81, 3, b'a', b'b', b'c', 0x81, 2, b'd', b'e']);
        for written in 0..5 {
            assert_eq!(
                gather(written, MAX_SLICES),
                all[written..],
                "after {written}"
            );
        }
        assert_eq!(
            gather(1, 2),
            [3, b'a', b'b', b'c'],
            "two slices: the first frame"
        );
    }

    /// A socket that takes at most `step` bytes a write, gathered across the slices of a
    /// vectored write as a real socket does (an in-memory pipe takes one slice at a time).
    struct Trickle {
        written: Arc<Mutex<Vec<u8>>>,
        step: usize,
        /// More than this written is an error (a sink that wrote bytes twice would never
        /// end).
        limit: usize,
    }

    impl AsyncRead for Trickle {
        fn poll_read(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
            _buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            Poll::Pending
        }
    }

    impl AsyncWrite for Trickle {
        fn poll_write(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            bytes: &[u8],
        ) -> Poll<io::Result<usize>> {
            self.poll_write_vectored(cx, &[IoSlice::new(bytes)])
        }

        fn poll_write_vectored(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
            slices: &[IoSlice<'_>],
        ) -> Poll<io::Result<usize>> {
            let mut written = lock(&self.written);
            if written.len() > self.limit {
                return Poll::Ready(Err(io::Error::other("more written than was sent")));
            }
            let mut room = self.step;
            for slice in slices {
                let take = room.min(slice.len());
                written.extend_from_slice(&slice[..take]);
                room -= take;
            }
            Poll::Ready(Ok(self.step - room))
        }

        fn is_write_vectored(&self) -> bool {
            true
        }

        fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    /// Writes that end anywhere, mid-header, mid-payload or across several frames at once,
    /// and batches longer than one write's slices: the bytes on the wire are every frame,
    /// whole and in order.
    #[tokio::test]
    async fn vectored_writes_cut_anywhere_leave_every_frame_whole() {
        let texts: Vec<String> = (0..3 * MAX_SLICES)
            .map(|i| "v".repeat(i % 9 * 31))
            .collect();
        let mut expected = Vec::new();
        for text in &texts {
            let frame = OutFrame::of(Message::Text(text.as_str().into()));
            expected.extend_from_slice(frame.head());
            expected.extend_from_slice(text.as_bytes());
        }
        for step in [1, 3, 7, 64, 1000] {
            let written = Arc::new(Mutex::new(Vec::new()));
            let socket = Trickle {
                written: written.clone(),
                step,
                limit: expected.len(),
            };
            let (mut sink, _stream) = split(socket, WebSocketConfig::default(), KEEP).await;
            for text in &texts {
                sink.feed(Message::Text(text.as_str().into()))
                    .await
                    .unwrap();
            }
            sink.flush().await.unwrap();
            assert!(
                lock(&written).as_slice() == expected.as_slice(),
                "{step} bytes a write"
            );
            assert!(lock(&sink.out).frames.is_empty());
        }
    }

    /// A socket that takes a few bytes at a time: every frame still arrives whole, in order.
    #[tokio::test]
    async fn frames_cut_anywhere_by_the_socket_arrive_whole() {
        let (mut sink, _stream, mut client) = pair(7).await;
        let texts: Vec<String> = (0..40).map(|i| "t".repeat(i * 7)).collect();
        let expected = texts.clone();
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            for _ in 0..expected.len() {
                got.push(read_frame(&mut client).await);
            }
            got
        });
        for text in texts {
            sink.feed(Message::Text(text.into())).await.unwrap();
        }
        sink.flush().await.unwrap();
        let got = reader.await.unwrap();
        let want: Vec<(u8, Vec<u8>)> = (0..40)
            .map(|i| (0x81, "t".repeat(i * 7).into_bytes()))
            .collect();
        assert_eq!(got, want);
    }

    /// A pipe smaller than the batch: the write waits for the client to read, then finishes.
    #[tokio::test]
    async fn a_write_larger_than_the_socket_takes_goes_out_as_the_client_reads() {
        let (mut sink, _stream, mut client) = pair(64).await;
        let text = "z".repeat(1000);
        let reader = tokio::spawn(async move { read_frame(&mut client).await });
        sink.send(Message::Text(text.clone().into())).await.unwrap();
        assert_eq!(reader.await.unwrap(), (0x81, text.into_bytes()));
    }

    #[tokio::test]
    async fn close_frames_carry_the_code_and_a_reason_cut_to_fit() {
        let (mut sink, _stream, mut client) = pair(1 << 16).await;
        let reason = "é".repeat(100); // 200 bytes: cut at a character within 123
        sink.send(Message::Close(Some(CloseFrame {
            code: 1001,
            reason: reason.into(),
        })))
        .await
        .unwrap();
        let (first, payload) = read_frame(&mut client).await;
        assert_eq!(first, 0x88);
        assert_eq!(u16::from_be_bytes([payload[0], payload[1]]), 1001);
        assert_eq!(payload.len(), 2 + 122);
        assert!(std::str::from_utf8(&payload[2..]).is_ok());
    }

    #[tokio::test]
    async fn the_client_s_messages_are_read_and_its_ping_answered() {
        let (_sink, mut stream, mut client) = pair(1 << 16).await;
        client
            .write_all(&client_frame(0x1, b"{\"type\":\"ping\"}"))
            .await
            .unwrap();
        client.write_all(&client_frame(0x9, b"hi")).await.unwrap();
        let first = stream.next().await.unwrap().unwrap();
        assert_eq!(first, Message::Text("{\"type\":\"ping\"}".into()));
        let second = stream.next().await.unwrap().unwrap();
        assert_eq!(second, Message::Ping(Bytes::from_static(b"hi")));
        // Tungstenite answers the ping by itself, through the shared buffer, with no write
        // of the server's to carry it.
        client
            .write_all(&client_frame(0x1, b"after"))
            .await
            .unwrap();
        stream.next().await.unwrap().unwrap();
        assert_eq!(read_frame(&mut client).await, (0x8A, b"hi".to_vec()));
    }

    #[tokio::test]
    async fn a_pong_queued_while_the_sink_waits_leaves_after_its_frames() {
        let (mut sink, mut stream, mut client) = pair(64).await;
        let text = "w".repeat(500);
        sink.feed(Message::Text(text.clone().into())).await.unwrap();
        // The socket takes only part of the frame: the sink is left waiting.
        let waker = futures_util::task::noop_waker();
        let mut cx = Context::from_waker(&waker);
        assert!(Pin::new(&mut sink).poll_flush(&mut cx).is_pending());
        client.write_all(&client_frame(0x9, b"hi")).await.unwrap();
        client.write_all(&client_frame(0x1, b"go")).await.unwrap();
        stream.next().await.unwrap().unwrap();
        stream.next().await.unwrap().unwrap();
        let reader = tokio::spawn(async move {
            let first = read_frame(&mut client).await;
            let second = read_frame(&mut client).await;
            (first, second)
        });
        sink.flush().await.unwrap();
        let (first, second) = reader.await.unwrap();
        assert_eq!(
            first,
            (0x81, text.into_bytes()),
            "the server's frame is whole"
        );
        assert_eq!(second, (0x8A, b"hi".to_vec()), "the pong follows it");
    }

    /// The socket is full when the pong comes and the sink has nothing to write: the pong
    /// leaves once the client reads, with no write of the server's to carry it.
    #[tokio::test]
    async fn a_pong_the_socket_could_not_take_leaves_when_it_can() {
        let (mut sink, mut stream, mut client) = pair(64).await;
        let filler = "f".repeat(62); // a 64-byte frame: the pipe is full, the sink done
        sink.send(Message::Text(filler.clone().into()))
            .await
            .unwrap();
        client.write_all(&client_frame(0x9, b"hi")).await.unwrap();
        assert_eq!(
            stream.next().await.unwrap().unwrap(),
            Message::Ping(Bytes::from_static(b"hi"))
        );
        // The reader waits for more; tungstenite hands its pong over on the way.
        let reading = tokio::spawn(async move {
            let next = stream.next().await;
            (stream, next)
        });
        // Let the reader run while the pipe is still full.
        for _ in 0..3 {
            tokio::task::yield_now().await;
        }
        assert!(
            !lock(&sink.out).frames.is_empty(),
            "the pong waits for room"
        );
        assert_eq!(read_frame(&mut client).await, (0x81, filler.into_bytes()));
        let pong =
            tokio::time::timeout(std::time::Duration::from_secs(10), read_frame(&mut client));
        assert_eq!(pong.await.expect("the pong"), (0x8A, b"hi".to_vec()));
        reading.abort();
    }

    #[tokio::test]
    async fn a_client_s_close_is_answered_once_the_sink_closes() {
        let (mut sink, mut stream, mut client) = pair(1 << 16).await;
        let mut close = vec![0x03, 0xE8]; // 1000
        close.extend_from_slice(b"bye");
        client.write_all(&client_frame(0x8, &close)).await.unwrap();
        let msg = stream.next().await.unwrap().unwrap();
        assert_eq!(
            msg,
            Message::Close(Some(CloseFrame {
                code: 1000,
                reason: "bye".into()
            }))
        );
        sink.close().await.unwrap();
        let (first, payload) = read_frame(&mut client).await;
        assert_eq!(first, 0x88, "the closing handshake's reply");
        assert_eq!(&payload[..2], &[0x03, 0xE8]);
    }
}
