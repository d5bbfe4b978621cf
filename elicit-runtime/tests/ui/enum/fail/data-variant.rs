use elicit_runtime::ElicitEnum;

#[derive(ElicitEnum)]
enum Shape {
    Circle(f64),
    Square { side: f64 },
    Dot,
}

fn main() {}
