import Blocklists
import Files
import Foundation
import GRDB

/// Each source's last good copy, compiled alone, lives beside the copy as a block set file
/// (`lists/KEY-SHA.blockset` beside `lists/KEY-SHA.list`): written when the copy is parsed at update,
/// merged from there into the profile's block set, and read for "which list blocks this?". Nothing
/// parses a copy twice, and no name is stored in SQLite.
extension Store {
  /// The block set file of a copy: the copy's path with `.blockset` for its extension.
  public static func listFile(forCopy cacheFile: String) -> String {
    let base = cacheFile.hasSuffix(".list") ? String(cacheFile.dropLast(5)) : cacheFile
    return base + ".blockset"
  }

  /// The fingerprint a copy's block set file is written under: the copy's checksum, the forced format,
  /// the engine and the file format.
  public static func copyFingerprint(sha256: String, format: InputFormat?) -> String {
    "copy \(sha256) \(format?.rawValue ?? "auto") engine \(Compiler.engineVersion) blockset \(CompiledList.archiveVersion)"
  }

  /// A source's last good copy (as the store has it now) compiled alone, without rules, read from its
  /// block set file; when the file is missing or stale (a data directory from before these files), the
  /// copy is compiled now and the file written for next time. Nil when the source has no copy, or its
  /// copy cannot be read. `rebuilding` compiles the copy and writes its file even when it is current.
  public func list(of source: Source, rebuilding: Bool = false) async -> CompiledList? {
    let stored = try? read { try Source.fetchOne($0, id: source.id) }
    guard let source = stored, let cacheFile = source.cacheFile, let sha256 = source.sha256 else { return nil }
    return await list(copy: cacheFile, sha256: sha256, format: source.format, name: source.key, rebuilding: rebuilding)
  }

  /// A copy (the good, previous or held copy of a source) compiled alone, read from its block set file,
  /// or compiled now and the file written; nil when the copy cannot be read.
  public func list(
    copy cacheFile: String, sha256: String, format: InputFormat?, name: String, rebuilding: Bool = false
  ) async -> CompiledList? {
    let fingerprint = Self.copyFingerprint(sha256: sha256, format: format)
    guard let archive = try? storedFile(Self.listFile(forCopy: cacheFile)) else { return nil }
    if !rebuilding,
      let found = try? await archive.withPath({
        CompiledList.readArchive(at: $0, fingerprint: fingerprint, rules: RuleSet())
      }
      ),
      let list = found
    {
      return list
    }
    return try? await compileCopy(cacheFile, sha256: sha256, format: format, name: name)
  }

  /// Adds a copy's names to a profile's merge from the copy's block set file; a copy without a current
  /// one (saved by an older version) is compiled alone now, and its file written for next time.
  public func merge(
    copy cacheFile: String, sha256: String, format: InputFormat?, name: String, into merging: inout Compiler.Merging,
    compiler: Compiler = Compiler()
  ) async throws(CompileError) {
    let fingerprint = Self.copyFingerprint(sha256: sha256, format: format)
    let archive = try? storedFile(Self.listFile(forCopy: cacheFile))
    let read = try? archive.map { archive in
      try archive.folder.withFile(archive.name) { merging.add(archiveAt: $0, fingerprint: fingerprint, name: name) }
    }
    if read == true { return }
    merging.add(
      try await compileCopy(cacheFile, sha256: sha256, format: format, name: name, compiler: compiler), name: name)
  }

  /// The saved copies of `sources` merged in order, without rules (sized from their counts): what a
  /// profile compiles from, and what `sources overlap` compares.
  public func merging(copiesOf sources: [Source]) async throws(CompileError) -> Compiler.Merging {
    let saved = sources.filter { $0.cacheFile != nil }
    var merging = Compiler.Merging(
      sourceCount: saved.count, capacity: saved.reduce(0) { $0 + ($1.unique ?? 0) },
      byteCapacity: saved.reduce(0) { $0 + Int($1.bytes ?? 0) })
    for source in saved {
      try await merge(
        copy: source.cacheFile ?? "", sha256: source.sha256 ?? "", format: source.format, name: source.key,
        into: &merging)
    }
    return merging
  }

  /// A copy compiled alone, without rules, its block set file written (lean) for next time.
  private func compileCopy(
    _ cacheFile: String, sha256: String, format: InputFormat?, name: String, compiler: Compiler = Compiler()
  ) async throws(CompileError) -> CompiledList {
    // The copy is opened inside lists/ without following a link: a link, FIFO or device there is refused.
    let copy: StoredFile
    let archive: StoredFile
    do {
      copy = try storedFile(cacheFile)
      archive = try copy.sibling(Self.listFile(forCopy: copy.name))
    } catch {
      throw .unreadable(path: cacheFile, detail: error.localizedDescription)
    }
    var compiler = compiler
    // With each name's line, which `why` reads from the file.
    compiler.recordsOrigins = true
    let compiled: CompiledList?
    do {
      compiled = try await copy.withPath { path in
        var input = ListSource.file(path, format: format)
        input.name = name
        return try await compiler.compile([input])
      }
    } catch let error as CompileError {
      throw error
    } catch {
      throw .unreadable(path: cacheFile, detail: error.localizedDescription)
    }
    guard let list = compiled else { throw .unreadable(path: cacheFile, detail: "no such file") }
    try? list.writeArchive(
      to: archive.writablePath, fingerprint: Self.copyFingerprint(sha256: sha256, format: format),
      withLookupTable: false)
    return list
  }

  /// The names of a source's last good copy, sorted.
  public func names(of source: Source) async -> [String] {
    (await list(of: source))?.allNames.sorted() ?? []
  }
}
