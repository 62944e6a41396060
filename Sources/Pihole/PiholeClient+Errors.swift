import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension PiholeClient {
  /// A transport error in words a user can act on: no type names, no source paths from the HTTP stack
  /// (it used to print "connection reset (error set): Connection refused)" and TLS errors with a build path).
  static func describe(_ error: any Error) -> String {
    switch error {
    case let error as HTTPClientError:
      switch error {
      case .connectTimeout, .getConnectionFromPoolTimeout: return "no connection within the time limit"
      case .tlsHandshakeTimeout: return "the TLS handshake did not finish in time"
      case .readTimeout, .deadlineExceeded: return "no answer within the time limit"
      case .remoteConnectionClosed: return "the server closed the connection without an answer"
      default: break
      }
    case let error as NIOConnectionError:
      if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
        return "the host name did not resolve"
      }
      if let io = error.connectionErrors.first?.error as? IOError { return plain(io.errnoCode) }
    case let error as IOError:
      return plain(error.errnoCode)
    case ChannelError.connectTimeout:
      return "no connection within the time limit"
    case ChannelError.eof, ChannelError.ioOnClosedChannel, ChannelError.outputClosed:
      return "the server closed the connection without an answer"
    default:
      break
    }
    let text = String(describing: error)
    if text.contains("Connection refused") || text.contains("connectionRefused") { return plain(ECONNREFUSED) }
    if text.contains("Connection reset") { return "the server reset the connection" }
    let type = String(reflecting: Swift.type(of: error))
    if type.contains("SSL") || type.contains("TLS") || text.contains("SSL") || text.contains("handshake") {
      return "the TLS handshake failed: is that an http:// port? Use http://HOST:PORT for a Pi-hole without HTTPS"
    }
    // The type's own words, without anything that looks like a source path.
    return text.split(separator: " ").filter { !$0.contains("/") || $0.hasPrefix("http") }.joined(separator: " ")
  }

  private static func plain(_ code: Int32) -> String {
    code == ECONNREFUSED
      ? "connection refused (nothing listens on that port)" : String(cString: strerror(code)).lowercased()
  }
}
