;; Floating-point loops (the kind of mbrot): iterations to escape for each point of a grid
;; over the Mandelbrot set.
(define (count-iterations cr ci limit)
  (let loop ((zr 0.0) (zi 0.0) (n 0))
    (if (or (= n limit) (> (+ (* zr zr) (* zi zi)) 4.0))
        n
        (loop (+ (- (* zr zr) (* zi zi)) cr) (+ (* 2.0 zr zi) ci) (+ n 1)))))
(define (mandelbrot size limit)
  (let rows ((y 0) (total 0))
    (if (= y size)
        total
        (rows (+ y 1)
              (let cols ((x 0) (total total))
                (if (= x size)
                    total
                    (cols (+ x 1)
                          (+ total (count-iterations (- (/ (* 3.0 x) size) 2.0)
                                                     (- (/ (* 2.0 y) size) 1.0) limit)))))))))
(mandelbrot 40 200)
