import ArgumentParser

/// `--profile NAME`: the profile a command works on; without it, the active one (or what the command's
/// description says, such as `hits`' profile applied to the log's server).
struct ProfileOption: ParsableArguments {
  @Option(
    name: .customLong("profile"), help: "The profile (default: the active one).", completion: Completions.profiles)
  var name: String?
}
