// A tiny HTTP/1.1 server on 127.0.0.1 for the tests of the URLSession adapter and the iTunes
// example: one thread accepts, one thread serves each connection, every connection answers once
// and closes. It serves scripted replies, including the bad ones a real server can produce
// (stalling, cutting a body off). In the spirit of swift-corelibs-foundation's
// Tests/Foundation/HTTPServer.swift; written for these tests, not taken from it.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP server on an ephemeral loopback port, answering each request with the reply its
/// handler picks. ``serving(_:_:)`` starts one for the length of a test and stops it after.
public final class LoopbackHTTPServer: Sendable {
  /// One request as the server read it.
  public struct Request: Sendable, Equatable {
    /// `GET`, `POST`, ...
    public let method: String
    /// The request target: path and query, e.g. `/lookup?id=909253`.
    public let target: String
  }

  /// What the server does with a request.
  public enum Reply: Sendable {
    /// Answers with `status` and `body`, then closes the connection.
    case respond(status: Int, body: [UInt8])
    /// Never answers: holds the connection until the client closes it (or the server stops).
    case stall
    /// Announces `declaredLength` body bytes, sends only `body`, then closes the connection.
    case cutOff(status: Int, body: [UInt8], declaredLength: Int)

    /// Answers with `status` and a UTF-8 `body`.
    public static func respond(status: Int, _ body: String) -> Reply {
      .respond(status: status, body: Array(body.utf8))
    }
  }

  /// What happened on the server, in order, for tests that wait on it.
  public enum Event: Sendable, Equatable {
    /// A request arrived.
    case received(Request)
    /// A client closed a connection the server was holding (a ``Reply/stall``).
    case closedByClient
  }

  /// The port the server listens on.
  public let port: UInt16
  /// Every ``Event``, in order; finishes when the server stops.
  public let events: AsyncStream<Event>
  /// `http://127.0.0.1:<port>`.
  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  private let listener: Int32
  private let handler: @Sendable (Request) -> Reply
  private let eventSink: AsyncStream<Event>.Continuation
  private let state = Locked(State())

  private struct State {
    var stopped = false
    var connections: Set<Int32> = []
  }

  /// Starts listening on 127.0.0.1 at an ephemeral port.
  ///
  /// - Parameter handler: Picks the reply to each request, on the connection's own thread.
  public init(_ handler: @escaping @Sendable (Request) -> Reply) throws(SocketError) {
    let fd = try Socket.listening()
    self.listener = fd
    self.port = try Socket.port(of: fd)
    self.handler = handler
    (self.events, self.eventSink) = AsyncStream.makeStream(of: Event.self)
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  /// Runs `body` with a server that answers with `handler`, and stops the server afterwards.
  public static func serving<R>(
    _ handler: @escaping @Sendable (Request) -> Reply, _ body: (LoopbackHTTPServer) async throws -> R
  ) async throws -> R {
    let server = try LoopbackHTTPServer(handler)
    defer { server.stop() }
    return try await body(server)
  }

  /// Stops accepting, drops the connections still open, and finishes ``events``.
  public func stop() {
    let open = state.withLock { state -> Set<Int32>? in
      guard !state.stopped else { return nil }
      state.stopped = true
      return state.connections
    }
    guard let open else { return }
    _ = shutdown(listener, Int32(SHUT_RDWR))
    for fd in open { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    eventSink.finish()
  }

  private func acceptLoop() {
    while true {
      let fd = accept(listener, nil, nil)
      if fd < 0 {
        if errno == EINTR { continue }
        break
      }
      let admitted = state.withLock { state in
        if !state.stopped { state.connections.insert(fd) }
        return !state.stopped
      }
      guard admitted else {
        close(fd)
        break
      }
      Thread.detachNewThread { [self] in serve(fd) }
    }
    close(listener)
  }

  private func serve(_ fd: Int32) {
    defer {
      state.withLock { _ = $0.connections.remove(fd) }
      close(fd)
    }
    guard let request = Socket.readRequest(fd) else { return }
    eventSink.yield(.received(request))
    switch handler(request) {
    case .respond(let status, let body):
      Socket.write(fd, Self.head(status: status, contentLength: body.count) + body)
    case .cutOff(let status, let body, let declaredLength):
      Socket.write(fd, Self.head(status: status, contentLength: declaredLength) + body)
    case .stall:
      if Socket.waitForClose(fd), !state.withLock({ $0.stopped }) { eventSink.yield(.closedByClient) }
    }
  }

  private static func head(status: Int, contentLength: Int) -> [UInt8] {
    let reasons = [200: "OK", 404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable"]
    let head =
      "HTTP/1.1 \(status) \(reasons[status] ?? "Status")\r\n" + "Content-Type: application/json\r\n"
      + "Content-Length: \(contentLength)\r\n" + "Connection: close\r\n\r\n"
    return Array(head.utf8)
  }
}

extension AsyncStream<LoopbackHTTPServer.Event>.Iterator {
  /// Waits for the next request the server receives, skipping other events.
  public mutating func nextRequest() async -> LoopbackHTTPServer.Request? {
    while let event = await next() {
      if case .received(let request) = event { return request }
    }
    return nil
  }

  /// Waits until a client closes a connection the server was holding; `false` if the server stopped first.
  public mutating func nextClose() async -> Bool {
    while let event = await next() {
      if event == .closedByClient { return true }
    }
    return false
  }
}

/// A loopback port that refuses connections: it is bound, so nothing else takes it, but nothing
/// listens on it. Released on deinit.
public final class ClosedPort: Sendable {
  /// The refusing port.
  public let port: UInt16
  private let fd: Int32

  /// Binds a socket on 127.0.0.1 at an ephemeral port without listening.
  public init() throws(SocketError) {
    fd = try Socket.bound()
    port = try Socket.port(of: fd)
  }

  deinit { close(fd) }

  /// `http://127.0.0.1:<port>`.
  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
}

/// A socket call failed while setting a test server up.
public struct SocketError: Error, CustomStringConvertible {
  /// The call that failed, e.g. `bind`.
  public let call: String
  /// `errno` after the call.
  public let code: Int32
  /// `bind failed: errno 98`.
  public var description: String { "\(call) failed: errno \(code)" }
}

/// The few POSIX socket calls the server makes, each wrapped once.
private enum Socket {
  static func bound() throws(SocketError) -> Int32 {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else {
      let code = errno
      close(fd)
      throw SocketError(call: "bind", code: code)
    }
    return fd
  }

  static func listening() throws(SocketError) -> Int32 {
    let fd = try bound()
    guard listen(fd, 128) == 0 else {
      let code = errno
      close(fd)
      throw SocketError(call: "listen", code: code)
    }
    return fd
  }

  static func port(of fd: Int32) throws(SocketError) -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0 else { throw SocketError(call: "getsockname", code: errno) }
    return UInt16(bigEndian: address.sin_port)
  }

  /// Reads up to the blank line that ends the request head; `nil` if the client went away first.
  static func readRequest(_ fd: Int32) -> LoopbackHTTPServer.Request? {
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    let end = Array("\r\n\r\n".utf8)
    while received.firstRange(of: end) == nil {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0, received.count < 65_536 else { return nil }
      received += chunk[0..<count]
    }
    let requestLine = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    let parts = requestLine.split(separator: " ")
    guard parts.count == 3 else { return nil }
    return LoopbackHTTPServer.Request(method: String(parts[0]), target: String(parts[1]))
  }

  static func write(_ fd: Int32, _ bytes: [UInt8]) {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      sent += count
    }
  }

  /// Blocks until the peer closes the connection (`true`) or it fails or is shut down (`false`).
  static func waitForClose(_ fd: Int32) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count == 0 { return true }
      if count < 0 {
        if errno == EINTR { continue }
        return errno == ECONNRESET
      }
    }
  }
}

/// State guarded by an `NSLock`. The thread sanitizer sees a pthread mutex's order, while on Linux a
/// contended `Mutex` waits in uninstrumented futex code, and the sanitizer would report two critical
/// sections of one `Mutex` as a race when hundreds of connections open and close at once.
private final class Locked<State>: @unchecked Sendable {
  private let lock = NSLock()
  private var state: State

  init(_ state: State) { self.state = state }

  func withLock<R>(_ body: (inout State) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&state)
  }
}
