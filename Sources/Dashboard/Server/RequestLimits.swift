import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes

/// Sheds connections that hold the dashboard without asking anything, and bodies it refused.
///
/// A channel handler between the HTTP codec and the responder (Hummingbird's `additionalChannelHandlers`):
/// - a request's head must arrive within `headerTimeout` of the connection opening, or of the previous
///   response's end: a client that trickles its headers (or sends none) is closed, so a few hundred such
///   connections cannot starve the dashboard;
/// - a response that says `Connection: close` (every refusal of a request with a body: a wrong CSRF
///   token, a foreign origin, a body above the size limit) closes the connection once written, instead
///   of reading the rest of the body first, as keep-alive would.
final class RequestLimits: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  /// How long a client may take to send a request's head.
  let headerTimeout: TimeAmount
  let logger: Logger
  private var deadline: Scheduled<Void>?
  private var requestEnded = true
  private var closesAfterResponse = false

  init(headerTimeout: TimeAmount, logger: Logger) {
    self.headerTimeout = headerTimeout
    self.logger = logger
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { startDeadline(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    startDeadline(context)
    context.fireChannelActive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      deadline?.cancel()
      deadline = nil
      requestEnded = false
    case .end:
      requestEnded = true
    case .body:
      break
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let response):
      closesAfterResponse = response.headerFields[.connection]?.lowercased() == "close"
      context.write(data, promise: promise)
    case .body:
      context.write(data, promise: promise)
    case .end:
      let written = promise ?? context.eventLoop.makePromise()
      if closesAfterResponse && !requestEnded {
        // The rest of the body is never read: the connection ends with this response.
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
      } else {
        startDeadline(context)
      }
      context.write(data, promise: written)
    }
  }

  /// Closes the connection unless a request's head arrives within `headerTimeout`.
  private func startDeadline(_ context: ChannelHandlerContext) {
    deadline?.cancel()
    let channel = context.channel
    let logger = logger
    let timeout = headerTimeout
    deadline = context.eventLoop.scheduleTask(in: timeout) {
      logger.notice(
        "Closed a connection that sent no request head within its time",
        metadata: [
          "remote": "\(channel.remoteAddress.map { "\($0)" } ?? "?")",
          "seconds": "\(timeout.nanoseconds / 1_000_000_000)",
        ])
      channel.close(promise: nil)
    }
  }
}
