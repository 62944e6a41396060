/// A list to compile: where its bytes come from and, optionally, the format it must be in.
public struct ListSource: Sendable, Hashable {
  /// Where the bytes are.
  public enum Location: Sendable, Hashable {
    /// A file on disk.
    case file(String)
    /// The process's standard input.
    case standardInput
    /// Bytes in memory (tests, downloads already read).
    case bytes([UInt8])
  }

  /// A short name for reports (file name, URL, catalog name).
  public var name: String
  /// Where the bytes are.
  public var location: Location
  /// The format lines must be in; `nil` recognises each line.
  public var format: InputFormat?

  /// Creates a source.
  public init(name: String, location: Location, format: InputFormat? = nil) {
    self.name = name
    self.location = location
    self.format = format
  }

  /// A file source named after its path.
  public static func file(_ path: String, format: InputFormat? = nil) -> ListSource {
    ListSource(name: path, location: .file(path), format: format)
  }

  /// An in-memory source, for tests and already-read data.
  public static func text(_ text: String, name: String = "text", format: InputFormat? = nil) -> ListSource {
    ListSource(name: name, location: .bytes(Array(text.utf8)), format: format)
  }
}
