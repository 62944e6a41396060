import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension DownloadError {
  /// Names an error thrown by the HTTP stack, file system or task machinery for the URL `url`.
  init(_ error: any Error, url: String, configuration: DownloadConfiguration, received: Int64 = 0) {
    switch error {
    case let error as DownloadError:
      self = error
    case is CancellationError:
      self = .cancelled(url: url)
    case let error as HTTPClientError:
      switch error {
      case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
        self = .timeout(url: url, kind: .connect, limit: configuration.connectTimeout)
      case .readTimeout:
        self = .timeout(url: url, kind: .idle, limit: configuration.idleTimeout)
      case .deadlineExceeded:
        self = .timeout(url: url, kind: .total, limit: configuration.totalTimeout)
      case .remoteConnectionClosed, .bodyLengthMismatch:
        self = .connectionLost(url: url, received: received, expected: nil)
      case .cancelled:
        self = .cancelled(url: url)
      case .invalidURL, .emptyHost, .emptyScheme:
        self = .invalidURL(url)
      default:
        self = .other(url: url, detail: String(describing: error))
      }
    case HTTPParserError.invalidEOFState:
      self = .connectionLost(url: url, received: received, expected: nil)
    case let error as HTTPParserError:
      self = .invalidResponse(url: url, detail: String(describing: error))
    case let error as NIOConnectionError:
      self = .unreachableHost(url: url, detail: Self.describe(connectionError: error))
    case let error as IOError where [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH].contains(error.errnoCode):
      self = .unreachableHost(url: url, detail: String(cString: strerror(error.errnoCode)))
    case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
      self = .connectionLost(url: url, received: received, expected: nil)
    case ChannelError.connectTimeout:
      self = .timeout(url: url, kind: .connect, limit: configuration.connectTimeout)
    case ChannelError.eof, ChannelError.ioOnClosedChannel, ChannelError.outputClosed:
      self = .connectionLost(url: url, received: received, expected: nil)
    default:
      let type = String(reflecting: Swift.type(of: error))
      if type.contains("SSL") || type.contains("TLS") || type.contains("Certificate") {
        self = .tls(url: url, detail: String(describing: error))
      } else {
        self = .other(url: url, detail: String(describing: error))
      }
    }
  }

  private static func describe(connectionError error: NIOConnectionError) -> String {
    if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
      return "the host name did not resolve"
    }
    if let first = error.connectionErrors.first {
      if let io = first.error as? IOError { return String(cString: strerror(io.errnoCode)) }
      return String(describing: first.error)
    }
    return "no address to connect to"
  }
}
