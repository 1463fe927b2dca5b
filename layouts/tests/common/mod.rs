pub mod handwritten;
