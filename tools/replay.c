/* tools/replay: a recording (examples/record.h) to one self-contained HTML page.

   usage: replay recording page.html [--title text] [--every n] [--max-frames n] [--max-contacts n]

   The page plays the motion with WebGL 2 in real time, every shape type (hulls where they are
   placed, spheres, capsules, meshes), with an orbit camera (drag; shift-drag pans, wheel zooms),
   pause (space), single steps (arrow keys), and the contact points and impulses, when the
   recording has them, drawn as red lines (+/- scale them, c hides them). Nothing is fetched: the
   data is inside the page, compressed (tools/replay.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/replay.h"

int main(int argc, char **argv) {
    replay_options o = replay_default_options();
    recording rec;
    const char *error = NULL, *input = NULL, *output = NULL;
    int i;
    o.title = NULL;
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--title") == 0 && i + 1 < argc) o.title = argv[++i];
        else if (strcmp(argv[i], "--every") == 0 && i + 1 < argc) o.every = atoi(argv[++i]);
        else if (strcmp(argv[i], "--max-frames") == 0 && i + 1 < argc) o.max_frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--max-contacts") == 0 && i + 1 < argc) o.max_contacts = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !input) input = argv[i];
        else if (argv[i][0] != '-' && !output) output = argv[i];
        else {
            input = NULL;
            break;
        }
    }
    if (!input || !output) {
        fprintf(stderr, "usage: replay recording page.html [--title text] [--every n] [--max-frames n]\n"
                        "              [--max-contacts n]\n");
        return 2;
    }
    if (!o.title) o.title = input;
    if (!record_read(input, &rec, &error)) {
        fprintf(stderr, "replay: %s: %s\n", input, error);
        return 1;
    }
    if (!replay_write_html(&rec, output, &o, &error)) {
        fprintf(stderr, "replay: %s: %s\n", output, error);
        record_free(&rec);
        return 1;
    }
    printf("replay: %d frames of %d bodies, %ld contacts -> %s\n", rec.frame_count, rec.body_count,
           rec.contact_start[rec.frame_count], output);
    record_free(&rec);
    return 0;
}
