package io.topobridge.e2e;

import io.topobridge.testing.FreePort;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The webhook Service of several replicas, as kube-proxy makes it: a TCP port on loopback whose connections go
 * round-robin to the replicas' webhook ports, skipping one that refuses the connection (a killed pod leaves the
 * Service's endpoints). TLS passes through untouched; the replicas share one certificate. Endpoints may be added
 * and removed as a rollout adds ready pods and takes terminating ones out; a connection already made stays with its
 * replica, as kube-proxy's connection tracking keeps it.
 */
final class WebhookBalancer implements AutoCloseable {

    private final List<Integer> backends;
    private final int port = FreePort.find();
    private final ServerSocket server;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "webhook-balancer");
        t.setDaemon(true);
        return t;
    });

    WebhookBalancer(List<Integer> backends) {
        this.backends = new java.util.concurrent.CopyOnWriteArrayList<>(backends);
        try {
            server = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        threads.execute(this::accept);
    }

    int port() {
        return port;
    }

    /** A replica that became ready joins the endpoints. */
    void add(int backend) {
        backends.add(backend);
    }

    /** A replica that is terminating leaves the endpoints: new connections no longer go to it. */
    void remove(int backend) {
        backends.remove(Integer.valueOf(backend));
    }

    /** Connections passed to a replica so far. */
    int connections() {
        return connections.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                threads.execute(() -> serve(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        Socket backend = null;
        List<Integer> endpoints = List.copyOf(backends);
        int first = endpoints.isEmpty() ? 0 : Math.floorMod(next.getAndIncrement(), endpoints.size());
        for (int i = 0; i < endpoints.size() && backend == null; i++) {
            int candidate = endpoints.get((first + i) % endpoints.size());
            try {
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", candidate), 1000);
                backend = s;
            } catch (IOException e) {
                // that replica is gone: the next one
            }
        }
        if (backend == null) {
            close(client);
            return;
        }
        connections.incrementAndGet();
        Socket upstream = backend;
        threads.execute(() -> pipe(client, upstream));
        pipe(upstream, client);
    }

    private static void pipe(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side went away
        } finally {
            close(from);
            close(to);
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
        threads.shutdownNow();
    }
}
