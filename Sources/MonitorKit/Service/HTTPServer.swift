import CMicroHTTPD
import Foundation

/// The HTTP server under `run`'s API: GNU libmicrohttpd, one thread per connection on a socket already listening
/// (`ListenAddress.listen`). Each request becomes an `HTTPRequest` for `handler`, whose `HTTPResponse` is sent
/// back; an event stream is read on the connection's own thread until the client leaves. Requests are read-only:
/// a request body is never read.
///
/// A slow or hostile client holds only its own connection's thread; at most `connectionLimit` connections are
/// open at once (libmicrohttpd refuses the rest), shared out so that one host cannot take them all
/// (`ConnectionQuota`), and a connection idle for `idleTimeoutSeconds` is closed.
///
/// Threads: `init` and `stop` from the control thread; `handler` runs on the connections' threads.
final class HTTPServer: @unchecked Sendable {
  typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

  /// Connections open at once: the load test's 200 idle ones and a dashboard in every office, with room to spare.
  static let connectionLimit: UInt32 = 512
  /// An idle connection is closed after this long (an event stream is never idle: it sends every second).
  static let idleTimeoutSeconds: UInt32 = 30
  /// The listening socket's queue of connections not yet accepted.
  static let listenBacklog: Int32 = 128

  let address: ListenAddress
  /// The connections each client holds.
  let quota = ConnectionQuota(connectionLimit: Int(HTTPServer.connectionLimit))
  /// The port listened on (the kernel's choice when the address gave port 0).
  let port: UInt16
  /// Answers every request; set before `start()`.
  var handler: Handler
  private var daemon: OpaquePointer?
  private let listenDescriptor: Int32
  private var socketClosed = false

  /// Opens the listening socket. The server answers only after `start()`.
  /// - Throws: `ListenAddress.BindError` naming the address and the fix (a port in use among them).
  init(address: ListenAddress, handler: @escaping Handler) throws {
    self.address = address
    self.handler = handler
    (listenDescriptor, port) = try address.listen(backlog: Self.listenBacklog)
  }

  deinit { stop() }

  /// Starts answering on libmicrohttpd's threads.
  func start() throws {
    let context = Unmanaged.passUnretained(self).toOpaque()
    guard
      let daemon = bm_mhd_start_thread_per_connection(
        listenDescriptor, Self.connectionLimit, Self.idleTimeoutSeconds, accessHandler, acceptPolicy,
        connectionNotice, context)
    else {
      close(listenDescriptor)
      socketClosed = true
      throw ListenAddress.BindError(address: address, code: errno == 0 ? EINVAL : errno)
    }
    self.daemon = daemon
  }

  /// Stops answering: open connections are closed (event streams must be closed first, `EventStream.close()`, or
  /// this waits for their next message) and the socket is closed. Calling it again does nothing.
  func stop() {
    if let daemon {
      MHD_stop_daemon(daemon)  // closes the listening socket it was given
      self.daemon = nil
    } else if !socketClosed {
      close(listenDescriptor)  // never started (the monitor could not start)
    }
    socketClosed = true
  }

  /// One request: parsed into an `HTTPRequest`, answered by `handler`, queued on the connection.
  fileprivate func answer(_ connection: OpaquePointer, url: String, method: String) -> MHD_Result {
    var request = HTTPRequest(method: method, path: url)
    withUnsafeMutablePointer(to: &request.query) { query in
      _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, queryCollector, query)
    }
    request.authorization = MHD_lookup_connection_value(connection, .HEADER_KIND, "Authorization").map {
      String(cString: $0)
    }
    request.cookie = MHD_lookup_connection_value(connection, .HEADER_KIND, "Cookie").map { String(cString: $0) }
    request.host = MHD_lookup_connection_value(connection, .HEADER_KIND, "Host").map { String(cString: $0) }
    let client = bm_mhd_client_address(connection)
    request.fromLoopback = client.map(ListenAddress.isLoopback) ?? false
    request.clientAddress = client.flatMap(ListenAddress.numericHost)
    let response = handler(request)
    let native: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
      native = bytes.withUnsafeBytes {
        MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
      }
    case .stream(let stream):
      let retained = Unmanaged.passRetained(StreamBox(stream)).toOpaque()
      native = MHD_create_response_from_callback(bm_mhd_size_unknown, 4096, streamReader, retained, streamRelease)
      if native == nil { Unmanaged<StreamBox>.fromOpaque(retained).release() }
    }
    guard let native else { return MHD_Result.NO }
    defer { MHD_destroy_response(native) }
    MHD_add_response_header(native, "Content-Type", response.contentType)
    MHD_add_response_header(native, "Cache-Control", "no-store")
    MHD_add_response_header(native, "X-Content-Type-Options", "nosniff")
    for (name, value) in response.headers { MHD_add_response_header(native, name, value) }
    return MHD_queue_response(connection, UInt32(response.status), native)
  }
}

/// An event stream handed to libmicrohttpd as the content reader's context (retained until it releases it).
private final class StreamBox {
  let stream: EventStream
  init(_ stream: EventStream) { self.stream = stream }
}

/// libmicrohttpd's access handler. For a request without a body, the first call only marks it seen and the second
/// answers: a response queued on the first call would close the connection, the second call's keeps it alive for
/// the client's next request. A request with a body (which this API never takes) is answered on the first call,
/// without reading the body; libmicrohttpd then closes the connection.
private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, _, requestState in
  guard let context, let connection, let url, let method, let requestState else { return MHD_Result.NO }
  let hasBody =
    MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") != nil
    || MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil
  if requestState.pointee == nil && !hasBody {
    requestState.pointee = UnsafeMutableRawPointer(bitPattern: 1)  // any non-null marker; nothing is allocated
    return MHD_Result.YES
  }
  let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
  return server.answer(connection, url: String(cString: url), method: String(cString: method))
}

/// libmicrohttpd's accept policy: whether the client's share of connections (`ConnectionQuota`) has room.
private let acceptPolicy: MHD_AcceptPolicyCallback = { context, address, _ in
  guard let context, let address else { return MHD_Result.NO }
  let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
  let admitted = server.quota.admits(
    address: ListenAddress.numericHost(address), loopback: ListenAddress.isLoopback(address))
  return admitted ? MHD_Result.YES : MHD_Result.NO
}

/// libmicrohttpd's notice of a connection opened or closed, for the clients' shares of connections.
private let connectionNotice: MHD_NotifyConnectionCallback = { context, connection, _, code in
  guard let context, let connection, let address = bm_mhd_client_address(connection) else { return }
  let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
  let host = ListenAddress.numericHost(address)
  let loopback = ListenAddress.isLoopback(address)
  switch code {
  case .CONNECTION_NOTIFY_STARTED: server.quota.opened(address: host, loopback: loopback)
  case .CONNECTION_NOTIFY_CLOSED: server.quota.closed(address: host, loopback: loopback)
  default: break
  }
}

/// Collects the decoded query parameters into an `[(name, value)]` (a parameter without `=` has the value ""). Each
/// is read to the length libmicrohttpd gives, not to its first NUL, so that `fm%00x` stays `fm\0x` (which the API
/// refuses) instead of reading as `fm`.
private let queryCollector: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
  guard let context, let key else { return MHD_Result.YES }
  let query = context.assumingMemoryBound(to: [(name: String, value: String)].self)
  let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
  let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) }
  query.pointee.append((name, text ?? ""))
  return MHD_Result.YES
}

/// Reads the next bytes of an event stream; blocks on the connection's thread until there are some.
private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, max in
  guard let context, let buffer else { return bm_mhd_end_with_error }
  let box = Unmanaged<StreamBox>.fromOpaque(context).takeUnretainedValue()
  guard let count = box.stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max)) else {
    return bm_mhd_end_with_error
  }
  return count
}

/// Called by libmicrohttpd when the stream's response is destroyed (the client left or the server stopped).
private let streamRelease: MHD_ContentReaderFreeCallback = { context in
  guard let context else { return }
  let box = Unmanaged<StreamBox>.fromOpaque(context).takeRetainedValue()
  box.stream.close()
}
