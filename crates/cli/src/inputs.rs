//! What the paths on the command line name: standard input (`-`), files, and the files in
//! directories (their subdirectories too with `--recursive`), in a stable order — as given,
//! and each directory's entries sorted by name (walkdir).

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// One input to analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// `-`: standard input.
    Stdin,
    /// A file named on the command line: read whatever it holds (a binary one is an error).
    Named(PathBuf),
    /// A file found in a directory: a binary one is skipped with a note.
    Found(PathBuf),
    /// A directory entry that could not be listed: an error, as an unreadable file is.
    Unlisted(PathBuf, String),
}

impl Input {
    /// The name to show (lossy for a name that is not UTF-8).
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "-".to_string(),
            Input::Named(p) | Input::Found(p) | Input::Unlisted(p, _) => p.to_string_lossy().into_owned(),
        }
    }
}

/// The inputs the paths name, and the notes to print about what was passed over.
#[derive(Debug, Default)]
pub struct Inputs {
    pub inputs: Vec<Input>,
    /// Subdirectories left out without `--recursive`, said on standard error.
    pub passed_over: Vec<PathBuf>,
    /// Whether a path was a directory (then a summary line ends the text output).
    pub walked: bool,
}

/// Expands `paths` in order: `-` is standard input, a directory its files (sorted by name; its
/// subdirectories' too when `recursive`), anything else a file to read.
pub fn expand(paths: &[PathBuf], recursive: bool) -> Inputs {
    let mut out = Inputs::default();
    for path in paths {
        if path.as_os_str() == "-" {
            out.inputs.push(Input::Stdin);
        } else if path.is_dir() {
            out.walked = true;
            walk(path, recursive, &mut out);
        } else {
            out.inputs.push(Input::Named(path.clone()));
        }
    }
    out
}

fn walk(dir: &Path, recursive: bool, out: &mut Inputs) {
    let depth = if recursive { usize::MAX } else { 1 };
    for entry in WalkDir::new(dir).min_depth(1).max_depth(depth).sort_by_file_name() {
        match entry {
            Ok(e) if e.file_type().is_dir() => {
                if !recursive {
                    out.passed_over.push(e.into_path());
                }
            }
            // A file, or a link to one (links to directories are not followed: no cycles).
            Ok(e) if e.file_type().is_file() || e.path().is_file() => out.inputs.push(Input::Found(e.into_path())),
            Ok(_) => {}
            Err(err) => {
                let path = err.path().map_or_else(|| dir.to_path_buf(), Path::to_path_buf);
                let why = err.io_error().map_or_else(|| err.to_string(), ToString::to_string);
                out.inputs.push(Input::Unlisted(path, why));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_gives_its_files_sorted_and_its_subdirectories_only_when_recursive() {
        let root = std::env::temp_dir().join(format!("coherency-inputs-{}", std::process::id()));
        std::fs::create_dir_all(root.join("sub/deeper")).unwrap();
        for f in ["b.txt", "a.txt", "sub/c.txt", "sub/deeper/d.txt"] {
            std::fs::write(root.join(f), "x").unwrap();
        }
        let flat = expand(&[root.clone(), PathBuf::from("-")], false);
        assert_eq!(flat.inputs, [Input::Found(root.join("a.txt")), Input::Found(root.join("b.txt")), Input::Stdin]);
        assert_eq!(flat.passed_over, [root.join("sub")]);
        assert!(flat.walked);
        let deep = expand(std::slice::from_ref(&root), true);
        let names: Vec<PathBuf> = deep.inputs.iter().map(|i| PathBuf::from(i.name())).collect();
        assert_eq!(
            names,
            [root.join("a.txt"), root.join("b.txt"), root.join("sub/c.txt"), root.join("sub/deeper/d.txt")]
        );
        assert!(deep.passed_over.is_empty());
        let named = expand(&[root.join("missing.txt")], false);
        assert_eq!(named.inputs, [Input::Named(root.join("missing.txt"))]);
        assert!(!named.walked);
    }
}
