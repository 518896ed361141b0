;; destructive-infra: denies commands that destroy cloud resources, Kubernetes objects
;; in bulk, or databases.
;;
;; Stops:   aws s3 rb; aws s3 rm --recursive; aws ... delete-* / terminate-*
;;          (ec2 terminate-instances, rds delete-db-instance, cloudformation delete-stack);
;;          terraform / tofu / terragrunt destroy and apply -destroy;
;;          kubectl delete namespace|ns ..., kubectl delete --all / -A / --all-namespaces;
;;          gcloud ... delete; az ... delete; doctl ... delete; pulumi destroy;
;;          helm uninstall; dropdb; DROP DATABASE / DROP TABLE / DROP SCHEMA / TRUNCATE
;;          sent to psql, mysql, mariadb, sqlite3, sqlcmd (-c, -e, or a pipe);
;;          redis-cli FLUSHALL / FLUSHDB; mongosh dropDatabase().
;; Lets through: aws s3 ls / cp, terraform plan / apply, kubectl get / apply /
;;          delete pod NAME, gcloud ... list / describe, psql -c "SELECT ...".
;; Enable:  [guards] enable = ["destructive-infra"] in harness.toml.

(import (harness hooks) (harness guards))

(define (aws-problem args)
  (let ((service (if (pair? args) (car args) ""))
        (action (if (and (pair? args) (pair? (cdr args))) (cadr args) "")))
    (cond ((and (string=? service "s3") (string=? action "rb")) "aws s3 rb removes a bucket")
          ((and (string=? service "s3") (string=? action "rm") (member "--recursive" args))
           "aws s3 rm --recursive deletes every object under the prefix")
          ((or (string-prefix? "delete-" action) (string-prefix? "terminate-" action))
           (string-append "aws " service " " action " destroys a resource"))
          (else #f))))

(define (terraform-problem name args)
  (and (pair? args)
       (or (string=? (car args) "destroy")
           (and (string=? (car args) "apply") (member "-destroy" args)))
       (string-append name " destroy tears down the infrastructure it manages")))

(define (kubectl-problem args)
  (and (pair? args) (string=? (car args) "delete")
       (cond ((any (lambda (w) (member w '("namespace" "namespaces" "ns"))) args)
              "kubectl delete namespace deletes everything in it")
             ((any (lambda (w) (or (member w '("--all" "-A" "--all-namespaces"))
                                   (string-prefix? "--all=" w)))
                   args)
              "kubectl delete --all deletes every object of the kind")
             (else #f))))

;; gcloud compute instances delete x, az group delete -n x, doctl compute droplet delete
(define (cli-delete-problem name args)
  (and (member "delete" args)
       (string-append name " ... delete destroys a cloud resource")))

(define destructive-sql '("DROP DATABASE" "DROP TABLE" "DROP SCHEMA" "TRUNCATE"
                          "FLUSHALL" "FLUSHDB" "DROPDATABASE()"))

(define (destructive-sql? text)
  (let ((upper (string-upcase text)))
    (find (lambda (statement) (string-contains upper statement)) destructive-sql)))

(define sql-clients '("psql" "mysql" "mariadb" "sqlite3" "sqlcmd" "cockroach" "clickhouse-client"
                      "redis-cli" "mongo" "mongosh"))

(define (problem words)
  (let ((name (command-name words)) (args (command-args words)))
    (cond ((string=? name "aws") (aws-problem args))
          ((member name '("terraform" "tofu" "terragrunt")) (terraform-problem name args))
          ((string=? name "pulumi")
           (and (member "destroy" args) "pulumi destroy tears down the stack"))
          ((string=? name "kubectl") (kubectl-problem args))
          ((string=? name "helm")
           (and (pair? args) (member (car args) '("uninstall" "delete"))
                "helm uninstall removes a release and its objects"))
          ((member name '("gcloud" "az" "doctl")) (cli-delete-problem name args))
          ((member name '("dropdb" "dropuser")) (string-append name " drops it for good"))
          ((and (member name sql-clients) (find destructive-sql? args))
           => (lambda (sql) (string-append name " runs " sql)))
          (else #f))))

;; echo 'DROP TABLE x' | psql: the statement is in an earlier command of the pipeline
(define (piped-sql-problem pipeline)
  (let ((client (find-tail (lambda (c) (member (command-name c) sql-clients)) pipeline)))
    (and client
         (any (lambda (c) (find destructive-sql? c))
              (take-while (lambda (c) (not (eq? c (car client)))) pipeline))
         (string-append (command-name (car client)) " is sent a DROP or TRUNCATE"))))

(define (pipeline-problem pipeline)
  (or (any problem pipeline) (piped-sql-problem pipeline)))

(register-hook 'pre_shell_exec
  (lambda (payload)
    (let loop ((pipelines (shell-pipelines (payload-text payload "command"))))
      (cond ((null? pipelines) '())
            ((pipeline-problem (car pipelines))
             => (lambda (why)
                  (deny "destructive-infra"
                        (string-append why ": "
                                       (string-join (map (lambda (c) (string-join c " "))
                                                         (car pipelines))
                                                    " | ")))))
            (else (loop (cdr pipelines)))))))
