/// What one source contributed to a compile.
public struct SourceReport: Sendable, Hashable, Codable {
  /// The source's name.
  public var name: String
  /// The format forced for it, if any.
  public var forcedFormat: InputFormat?
  /// Everything its lines held.
  public var findings = Findings()
  /// Names this source added to the set first.
  public var unique = 0
  /// Names that an earlier line or source already had.
  public var duplicates = 0
  /// Bytes read.
  public var bytes = 0

  /// Creates an empty report for a source.
  public init(name: String, forcedFormat: InputFormat?) {
    self.name = name
    self.forcedFormat = forcedFormat
  }

  /// The format of the source: the forced one, or the one most of its lines were in.
  public var format: InputFormat? { forcedFormat ?? findings.dominantFormat }
}
