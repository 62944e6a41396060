import Foundation

/// A self-signed certificate for 127.0.0.1 and localhost, made with the openssl command for one test run.
public struct TestCertificate: Sendable {
  /// The certificate, PEM; also the trust root that accepts it.
  public let certificatePath: String
  /// Its private key, PEM.
  public let keyPath: String

  /// Generates a certificate and key in `directory` (valid for one day), for the names given as
  /// `subjectAltName` entries (by default this machine's: `IP:127.0.0.1,DNS:localhost`).
  public static func generate(
    in directory: TemporaryDirectory, names: String = "IP:127.0.0.1,DNS:localhost", file: String = "server"
  ) throws -> TestCertificate {
    let certificate = directory.file("\(file).pem").path
    let key = directory.file("\(file).key").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj",
      "/CN=127.0.0.1",
      "-addext", "subjectAltName=\(names)", "-keyout", key, "-out", certificate,
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
