import Foundation

/// A self-signed certificate for 127.0.0.1 and localhost, made with the openssl command for one test run.
public struct TestCertificate: Sendable {
  /// The certificate, PEM; also the trust root that accepts it.
  public let certificatePath: String
  /// Its private key, PEM.
  public let keyPath: String

  /// Generates a certificate and key in `directory` (valid for one day).
  public static func generate(in directory: TemporaryDirectory) throws -> TestCertificate {
    let certificate = directory.file("server.pem").path
    let key = directory.file("server.key").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
      "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key, "-out", certificate,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: certificate])
    }
    return TestCertificate(certificatePath: certificate, keyPath: key)
  }
}
